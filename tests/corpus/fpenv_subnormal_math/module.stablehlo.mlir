module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xf32>) -> (tensor<4x6xf32> {jax.result_info = "result[0]"}, tensor<4x6xf32> {jax.result_info = "result[1]"}, tensor<4x6xf32> {jax.result_info = "result[2]"}, tensor<4x6xf32> {jax.result_info = "result[3]"}, tensor<4x6xf32> {jax.result_info = "result[4]"}, tensor<4x6xf32> {jax.result_info = "result[5]"}, tensor<4x6xf32> {jax.result_info = "result[6]"}, tensor<4x6xf32> {jax.result_info = "result[7]"}, tensor<4x6xf32> {jax.result_info = "result[8]"}, tensor<4x6xf32> {jax.result_info = "result[9]"}, tensor<4x6xf32> {jax.result_info = "result[10]"}, tensor<4x6xf32> {jax.result_info = "result[11]"}, tensor<4x6xf32> {jax.result_info = "result[12]"}, tensor<4x6xf32> {jax.result_info = "result[13]"}, tensor<4x6xf32> {jax.result_info = "result[14]"}, tensor<4x6xf32> {jax.result_info = "result[15]"}, tensor<4x6xf32> {jax.result_info = "result[16]"}, tensor<4x6xf32> {jax.result_info = "result[17]"}, tensor<4x6xf32> {jax.result_info = "result[18]"}, tensor<4x6xf32> {jax.result_info = "result[19]"}, tensor<4x6xf32> {jax.result_info = "result[20]"}, tensor<4x6xf32> {jax.result_info = "result[21]"}, tensor<4x6xf32> {jax.result_info = "result[22]"}, tensor<4x6xf32> {jax.result_info = "result[23]"}, tensor<4x6xf32> {jax.result_info = "result[24]"}, tensor<4x6xf32> {jax.result_info = "result[25]"}, tensor<4x6xf32> {jax.result_info = "result[26]"}, tensor<4x6xi1> {jax.result_info = "result[27]"}, tensor<4x6xf32> {jax.result_info = "result[28]"}, tensor<4x6xf32> {jax.result_info = "result[29]"}) {
    %0 = stablehlo.log %arg0 : tensor<4x6xf32>
    %1 = stablehlo.sqrt %arg0 : tensor<4x6xf32>
    %2 = stablehlo.rsqrt %arg0 : tensor<4x6xf32>
    %3 = stablehlo.sign %arg0 : tensor<4x6xf32>
    %4 = stablehlo.floor %arg0 : tensor<4x6xf32>
    %5 = stablehlo.ceil %arg0 : tensor<4x6xf32>
    %6 = call @round(%arg0) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %8 = stablehlo.divide %7, %arg0 : tensor<4x6xf32>
    %9 = stablehlo.multiply %arg0, %arg1 : tensor<4x6xf32>
    %10 = stablehlo.add %arg0, %arg1 : tensor<4x6xf32>
    %11 = stablehlo.subtract %arg0, %arg1 : tensor<4x6xf32>
    %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %13 = stablehlo.add %arg1, %12 : tensor<4x6xf32>
    %14 = stablehlo.divide %arg0, %13 : tensor<4x6xf32>
    %15 = stablehlo.maximum %arg0, %arg1 : tensor<4x6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %17 = stablehlo.minimum %arg0, %16 : tensor<4x6xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %19 = stablehlo.subtract %arg0, %18 : tensor<4x6xf32>
    %20 = stablehlo.exponential %19 : tensor<4x6xf32>
    %21 = stablehlo.abs %arg1 : tensor<4x6xf32>
    %22 = stablehlo.negate %21 : tensor<4x6xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %24 = stablehlo.multiply %22, %23 : tensor<4x6xf32>
    %25 = stablehlo.exponential %24 : tensor<4x6xf32>
    %26 = stablehlo.tanh %arg0 : tensor<4x6xf32>
    %27 = stablehlo.sine %arg0 : tensor<4x6xf32>
    %28 = stablehlo.cosine %arg0 : tensor<4x6xf32>
    %29 = stablehlo.tan %arg0 : tensor<4x6xf32>
    %30 = stablehlo.exponential_minus_one %arg0 : tensor<4x6xf32>
    %31 = stablehlo.log_plus_one %arg0 : tensor<4x6xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %33 = stablehlo.atan2 %arg0, %32 : tensor<4x6xf32>
    %34 = stablehlo.negate %arg0 : tensor<4x6xf32>
    %35 = stablehlo.exponential %34 : tensor<4x6xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %37 = stablehlo.add %36, %35 : tensor<4x6xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %39 = stablehlo.divide %38, %37 : tensor<4x6xf32>
    %40 = stablehlo.abs %arg0 : tensor<4x6xf32>
    %41 = stablehlo.negate %arg0 : tensor<4x6xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %43 = stablehlo.compare GT, %arg0, %42, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %45 = stablehlo.compare LT, %arg0, %44, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %cst_9 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = call @_where(%45, %cst_9, %cst_10) : (tensor<4x6xi1>, tensor<f32>, tensor<f32>) -> tensor<4x6xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %47 = call @_where_0(%43, %cst_11, %46) : (tensor<4x6xi1>, tensor<f32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %49 = stablehlo.compare EQ, %arg0, %48, FLOAT : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %50 = call @fmod(%arg0, %cst_13) : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
    %51 = stablehlo.abs %arg0 : tensor<4x6xf32>
    %cst_14 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %53 = stablehlo.power %51, %52 : tensor<4x6xf32>
    return %0, %1, %2, %3, %4, %5, %6, %8, %9, %10, %11, %14, %15, %17, %20, %25, %26, %27, %28, %29, %30, %31, %33, %39, %40, %41, %47, %49, %50, %53 : tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xi1>, tensor<4x6xf32>, tensor<4x6xf32>
  }
  func.func private @round(%arg0: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<4x6xf32>
    return %0 : tensor<4x6xf32>
  }
  func.func private @_where(%arg0: tensor<4x6xi1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<4x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<4x6xi1>, tensor<4x6xf32>
    return %2 : tensor<4x6xf32>
  }
  func.func private @_where_0(%arg0: tensor<4x6xi1>, %arg1: tensor<f32>, %arg2: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<4x6xi1>, tensor<4x6xf32>
    return %1 : tensor<4x6xf32>
  }
  func.func private @fmod(%arg0: tensor<4x6xf32>, %arg1: tensor<f32>) -> tensor<4x6xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %2 = stablehlo.remainder %arg0, %1 : tensor<4x6xf32>
    return %2 : tensor<4x6xf32>
  }
}
