module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>, %arg2: tensor<32x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<8x32xf32>
    %3 = stablehlo.negate %0 : tensor<8x32xf32>
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %5 = stablehlo.multiply %3, %4 : tensor<8x32xf32>
    %6 = chlo.erfc %5 : tensor<8x32xf32> -> tensor<8x32xf32>
    %7 = stablehlo.multiply %2, %6 : tensor<8x32xf32>
    %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
    return %8 : tensor<8x16xf32>
  }
}
