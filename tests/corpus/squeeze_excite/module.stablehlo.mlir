module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x8x5x5xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<4x8xf32>, %arg3: tensor<8x3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result[0]"}, tensor<2x8x5x5xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2, 3] : (tensor<2x8x5x5xf32>, tensor<f32>) -> tensor<2x8xf32>
    %cst_0 = stablehlo.constant dense<2.500000e+01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %2 = stablehlo.divide %0, %1 : tensor<2x8xf32>
    %3 = stablehlo.dot_general %2, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    %4 = call @silu(%3) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
    %6 = stablehlo.negate %5 : tensor<2x8xf32>
    %7 = stablehlo.exponential %6 : tensor<2x8xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %9 = stablehlo.add %8, %7 : tensor<2x8xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8xf32>
    %11 = stablehlo.divide %10, %9 : tensor<2x8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<2x8x1x1xf32>) -> tensor<2x8x5x5xf32>
    %14 = stablehlo.multiply %arg0, %13 : tensor<2x8x5x5xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_3) applies stablehlo.maximum across dimensions = [2, 3] : (tensor<2x8x5x5xf32>, tensor<f32>) -> tensor<2x8xf32>
    %16 = stablehlo.dot_general %15, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
    %17 = call @log_softmax(%16) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %17, %14 : tensor<2x3xf32>, tensor<2x8x5x5xf32>
  }
  func.func private @silu(%arg0: tensor<2x4xf32>) -> tensor<2x4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<2x4xf32>
    %1 = stablehlo.exponential %0 : tensor<2x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %3 = stablehlo.add %2, %1 : tensor<2x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %5 = stablehlo.divide %4, %3 : tensor<2x4xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<2x4xf32>
    return %6 : tensor<2x4xf32>
  }
  func.func private @log_softmax(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<2xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x3xf32>
    %6 = stablehlo.exponential %5 : tensor<2x3xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %9 = stablehlo.log %8 : tensor<2x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x3xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x3xf32>
    return %11 : tensor<2x3xf32>
  }
}
