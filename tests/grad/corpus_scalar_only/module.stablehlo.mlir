module @jit_grads attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i1>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<f32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.add %0, %cst : tensor<f32>
    %2 = call @_where(%arg3, %arg0, %arg1) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %3 = stablehlo.sine %arg0 : tensor<f32>
    %4 = stablehlo.cosine %arg0 : tensor<f32>
    %5 = stablehlo.multiply %3, %3 : tensor<f32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %6 = stablehlo.multiply %cst_0, %3 : tensor<f32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %7 = stablehlo.multiply %arg2, %c : tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.add %7, %c_1 : tensor<i32>
    %9 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %10 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %11 = stablehlo.multiply %10, %arg0 : tensor<f32>
    %12 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
    %13 = stablehlo.compare EQ, %arg0, %12, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.select %13, %cst_3, %cst_2 : tensor<i1>, tensor<f32>
    %15 = stablehlo.compare EQ, %arg1, %12, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %16 = stablehlo.select %15, %cst_5, %cst_4 : tensor<i1>, tensor<f32>
    %17 = stablehlo.divide %14, %16 : tensor<f32>
    %18 = stablehlo.compare EQ, %arg1, %12, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.select %18, %cst_7, %cst_6 : tensor<i1>, tensor<f32>
    %20 = stablehlo.compare EQ, %arg0, %12, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %21 = stablehlo.select %20, %cst_9, %cst_8 : tensor<i1>, tensor<f32>
    %22 = stablehlo.divide %19, %21 : tensor<f32>
    %23 = stablehlo.not %arg3 : tensor<i1>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %24 = stablehlo.multiply %arg0, %cst_10 : tensor<f32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.multiply %cst_11, %arg1 : tensor<f32>
    return %1, %25, %24 : tensor<f32>, tensor<f32>, tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<f32>
    return %0 : tensor<f32>
  }
}
