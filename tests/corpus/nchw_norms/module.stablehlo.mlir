module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x4x4xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>) -> (tensor<2x8x4x4xf32> {jax.result_info = "result[0]"}, tensor<2x8x4x4xf32> {jax.result_info = "result[1]"}, tensor<2x8x4x4xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2, 3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1x1xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x1x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x8x1x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<2x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x8x4x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = call @_var(%arg0, %c) : (tensor<2x8x4x4xf32>, tensor<i32>) -> tensor<2x8x1x1xf32>
    %cst_1 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8x1x1xf32>
    %8 = stablehlo.add %6, %7 : tensor<2x8x1x1xf32>
    %9 = stablehlo.rsqrt %8 : tensor<2x8x1x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<2x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %11 = stablehlo.multiply %5, %10 : tensor<2x8x4x4xf32>
    %12 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8x1x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %14 = stablehlo.multiply %11, %13 : tensor<2x8x4x4xf32>
    %15 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<1x8x1x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %17 = stablehlo.add %14, %16 : tensor<2x8x4x4xf32>
    %18 = stablehlo.reshape %arg0 : (tensor<2x8x4x4xf32>) -> tensor<2x4x2x4x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_2) applies stablehlo.add across dimensions = [2, 3, 4] : (tensor<2x4x2x4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x1x1x1xf32>
    %cst_3 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x4x1x1x1xf32>
    %22 = stablehlo.divide %20, %21 : tensor<2x4x1x1x1xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2, 3, 4] : (tensor<2x4x1x1x1xf32>) -> tensor<2x4x2x4x4xf32>
    %24 = stablehlo.subtract %18, %23 : tensor<2x4x2x4x4xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %25 = call @_var_0(%18, %c_4) : (tensor<2x4x2x4x4xf32>, tensor<i32>) -> tensor<2x4x1x1x1xf32>
    %cst_5 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x4x1x1x1xf32>
    %27 = stablehlo.add %25, %26 : tensor<2x4x1x1x1xf32>
    %28 = stablehlo.rsqrt %27 : tensor<2x4x1x1x1xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1, 2, 3, 4] : (tensor<2x4x1x1x1xf32>) -> tensor<2x4x2x4x4xf32>
    %30 = stablehlo.multiply %24, %29 : tensor<2x4x2x4x4xf32>
    %31 = stablehlo.reshape %30 : (tensor<2x4x2x4x4xf32>) -> tensor<2x8x4x4xf32>
    %32 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8x1x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2, 3] : (tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %34 = stablehlo.multiply %31, %33 : tensor<2x8x4x4xf32>
    %35 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<1x8x1x1xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2, 3] : (tensor<1x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %37 = stablehlo.add %34, %36 : tensor<2x8x4x4xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%arg0 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 2, 3] : (tensor<2x4x4xf32>) -> tensor<2x1x4x4xf32>
    %cst_7 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x1x4x4xf32>
    %41 = stablehlo.divide %39, %40 : tensor<2x1x4x4xf32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<2x1x4x4xf32>) -> tensor<2x8x4x4xf32>
    %43 = stablehlo.subtract %arg0, %42 : tensor<2x8x4x4xf32>
    %44 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2, 3] : (tensor<2x1x4x4xf32>) -> tensor<2x8x4x4xf32>
    %45 = stablehlo.subtract %arg0, %44 : tensor<2x8x4x4xf32>
    %46 = stablehlo.multiply %45, %45 : tensor<2x8x4x4xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 2, 3] : (tensor<2x4x4xf32>) -> tensor<2x1x4x4xf32>
    %cst_9 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x1x4x4xf32>
    %50 = stablehlo.divide %48, %49 : tensor<2x1x4x4xf32>
    %cst_10 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x1x4x4xf32>
    %52 = stablehlo.add %50, %51 : tensor<2x1x4x4xf32>
    %53 = stablehlo.sqrt %52 : tensor<2x1x4x4xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2, 3] : (tensor<2x1x4x4xf32>) -> tensor<2x8x4x4xf32>
    %55 = stablehlo.divide %43, %54 : tensor<2x8x4x4xf32>
    return %17, %37, %55 : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>
  }
  func.func private @_var(%arg0: tensor<2x8x4x4xf32>, %arg1: tensor<i32>) -> tensor<2x8x1x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2, 3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1x1xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x1x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x8x1x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<2x8x1x1xf32>) -> tensor<2x8x4x4xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x8x4x4xf32>
    %6 = chlo.square %5 : tensor<2x8x4x4xf32> -> tensor<2x8x4x4xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [2, 3] : (tensor<2x8x4x4xf32>, tensor<f32>) -> tensor<2x8xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x8x1x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x8x1x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where(%13, %12, %cst_4) : (tensor<i1>, tensor<2x8x1x1xf32>, tensor<f32>) -> tensor<2x8x1x1xf32>
    return %14 : tensor<2x8x1x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<2x8x1x1xf32>, %arg2: tensor<f32>) -> tensor<2x8x1x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x8x1x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<2x8x1x1xf32>
    return %2 : tensor<2x8x1x1xf32>
  }
  func.func private @_var_0(%arg0: tensor<2x4x2x4x4xf32>, %arg1: tensor<i32>) -> tensor<2x4x1x1x1xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2, 3, 4] : (tensor<2x4x2x4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x1x1x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x1x1x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x4x1x1x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3, 4] : (tensor<2x4x1x1x1xf32>) -> tensor<2x4x2x4x4xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x4x2x4x4xf32>
    %6 = chlo.square %5 : tensor<2x4x2x4x4xf32> -> tensor<2x4x2x4x4xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [2, 3, 4] : (tensor<2x4x2x4x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x4xf32>) -> tensor<2x4x1x1x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x4x1x1x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x4x1x1x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = call @_where_1(%13, %12, %cst_4) : (tensor<i1>, tensor<2x4x1x1x1xf32>, tensor<f32>) -> tensor<2x4x1x1x1xf32>
    return %14 : tensor<2x4x1x1x1xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<2x4x1x1x1xf32>, %arg2: tensor<f32>) -> tensor<2x4x1x1x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4x1x1x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<2x4x1x1x1xf32>
    return %2 : tensor<2x4x1x1x1xf32>
  }
}
