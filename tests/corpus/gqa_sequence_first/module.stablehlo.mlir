module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x2x4x8xf32>, %arg1: tensor<16x2x2x8xf32>, %arg2: tensor<16x2x2x8xf32>) -> (tensor<16x2x4x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<16x2x4x8xf32>) -> tensor<16x2x2x2x8xf32>
    %1 = stablehlo.dot_general %arg1, %0, batching_dims = [1, 2] x [1, 2], contracting_dims = [3] x [4], precision = [DEFAULT, DEFAULT] : (tensor<16x2x2x8xf32>, tensor<16x2x2x2x8xf32>) -> tensor<2x2x16x16x2xf32>
    %2 = stablehlo.transpose %1, dims = [0, 1, 4, 3, 2] : (tensor<2x2x16x16x2xf32>) -> tensor<2x2x2x16x16xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x2x2x16x16xf32>
    %4 = stablehlo.divide %2, %3 : tensor<2x2x2x16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.maximum across dimensions = [4] : (tensor<2x2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x2x16xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x2x2x16xf32>
    %7 = stablehlo.maximum %6, %5 : tensor<2x2x2x16xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2, 3] : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x16x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3, 4] : (tensor<2x2x2x16x1xf32>) -> tensor<2x2x2x16x16xf32>
    %10 = stablehlo.subtract %4, %9 : tensor<2x2x2x16x16xf32>
    %11 = stablehlo.exponential %10 : tensor<2x2x2x16x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%11 init: %cst_2) applies stablehlo.add across dimensions = [4] : (tensor<2x2x2x16x16xf32>, tensor<f32>) -> tensor<2x2x2x16xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<2x2x2x16xf32>) -> tensor<2x2x2x16x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2, 3, 4] : (tensor<2x2x2x16x1xf32>) -> tensor<2x2x2x16x16xf32>
    %15 = stablehlo.divide %11, %14 : tensor<2x2x2x16x16xf32>
    %16 = stablehlo.dot_general %arg2, %15, batching_dims = [1, 2] x [0, 1], contracting_dims = [0] x [4], precision = [DEFAULT, DEFAULT] : (tensor<16x2x2x8xf32>, tensor<2x2x2x16x16xf32>) -> tensor<2x2x8x2x16xf32>
    %17 = stablehlo.transpose %16, dims = [4, 0, 1, 3, 2] : (tensor<2x2x8x2x16xf32>) -> tensor<16x2x2x2x8xf32>
    %18 = stablehlo.reshape %17 : (tensor<16x2x2x2x8xf32>) -> tensor<16x2x4x8xf32>
    return %18 : tensor<16x2x4x8xf32>
  }
}
