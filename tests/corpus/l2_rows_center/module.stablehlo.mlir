module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x256xf32>) -> (tensor<6x256xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<6x256xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<6x256xf32>, tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %cst_0 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %4 = stablehlo.add %2, %3 : tensor<6x1xf32>
    %5 = stablehlo.rsqrt %4 : tensor<6x1xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x256xf32>
    %7 = stablehlo.multiply %arg0, %6 : tensor<6x256xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<6x256xf32>, tensor<f32>) -> tensor<256xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %cst_2 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x256xf32>
    %11 = stablehlo.divide %9, %10 : tensor<1x256xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<6x256xf32>
    %13 = stablehlo.subtract %7, %12 : tensor<6x256xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = call @clip(%13, %cst_3, %cst_4) : (tensor<6x256xf32>, tensor<f32>, tensor<f32>) -> tensor<6x256xf32>
    return %14 : tensor<6x256xf32>
  }
  func.func private @clip(%arg0: tensor<6x256xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<6x256xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x256xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<6x256xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<6x256xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<6x256xf32>
    return %5 : tensor<6x256xf32>
  }
}
