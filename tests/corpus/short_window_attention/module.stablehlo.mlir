module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x12x32xf32>, %arg1: tensor<32x32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<32x32xf32>) -> (tensor<2x12x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x12x32xf32>, tensor<32x32xf32>) -> tensor<2x12x32xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x12x32xf32>) -> tensor<2x12x4x8xf32>
    %2 = stablehlo.transpose %1, dims = [0, 2, 1, 3] : (tensor<2x12x4x8xf32>) -> tensor<2x4x12x8xf32>
    %3 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x12x32xf32>, tensor<32x32xf32>) -> tensor<2x12x32xf32>
    %4 = stablehlo.reshape %3 : (tensor<2x12x32xf32>) -> tensor<2x12x4x8xf32>
    %5 = stablehlo.transpose %4, dims = [0, 2, 1, 3] : (tensor<2x12x4x8xf32>) -> tensor<2x4x12x8xf32>
    %6 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x12x32xf32>, tensor<32x32xf32>) -> tensor<2x12x32xf32>
    %7 = stablehlo.reshape %6 : (tensor<2x12x32xf32>) -> tensor<2x12x4x8xf32>
    %8 = stablehlo.transpose %7, dims = [0, 2, 1, 3] : (tensor<2x12x4x8xf32>) -> tensor<2x4x12x8xf32>
    %9 = stablehlo.transpose %5, dims = [0, 1, 3, 2] : (tensor<2x4x12x8xf32>) -> tensor<2x4x8x12xf32>
    %10 = stablehlo.dot_general %2, %9, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x12x8xf32>, tensor<2x4x8x12xf32>) -> tensor<2x4x12x12xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x12x12xf32>
    %12 = stablehlo.divide %10, %11 : tensor<2x4x12x12xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst_0) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x12x12xf32>, tensor<f32>) -> tensor<2x4x12xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x4x12xf32>
    %15 = stablehlo.maximum %14, %13 : tensor<2x4x12xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<2x4x12xf32>) -> tensor<2x4x12x1xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1, 2, 3] : (tensor<2x4x12x1xf32>) -> tensor<2x4x12x12xf32>
    %18 = stablehlo.subtract %12, %17 : tensor<2x4x12x12xf32>
    %19 = stablehlo.exponential %18 : tensor<2x4x12x12xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_2) applies stablehlo.add across dimensions = [3] : (tensor<2x4x12x12xf32>, tensor<f32>) -> tensor<2x4x12xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<2x4x12xf32>) -> tensor<2x4x12x1xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2, 3] : (tensor<2x4x12x1xf32>) -> tensor<2x4x12x12xf32>
    %23 = stablehlo.divide %19, %22 : tensor<2x4x12x12xf32>
    %24 = stablehlo.dot_general %23, %8, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x12x12xf32>, tensor<2x4x12x8xf32>) -> tensor<2x4x12x8xf32>
    %25 = stablehlo.transpose %24, dims = [0, 2, 1, 3] : (tensor<2x4x12x8xf32>) -> tensor<2x12x4x8xf32>
    %26 = stablehlo.reshape %25 : (tensor<2x12x4x8xf32>) -> tensor<2x12x32xf32>
    %27 = stablehlo.dot_general %26, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x12x32xf32>, tensor<32x32xf32>) -> tensor<2x12x32xf32>
    return %27 : tensor<2x12x32xf32>
  }
}
