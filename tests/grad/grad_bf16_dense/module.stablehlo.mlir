module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xbf16>, %arg1: tensor<8xbf16>, %arg2: tensor<12x16xbf16>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<16x8xbf16> {jax.result_info = "result[1]"}, tensor<8xbf16> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x16xbf16>, tensor<16x8xbf16>) -> tensor<12x8xf32>
    %1 = stablehlo.convert %arg1 : (tensor<8xbf16>) -> tensor<8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<12x8xf32>
    %4 = stablehlo.add %0, %3 : tensor<12x8xf32>
    %5 = stablehlo.tanh %4 : tensor<12x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12x8xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<12x8xf32>
    %8 = stablehlo.multiply %5, %5 : tensor<12x8xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12x8xf32>
    %10 = stablehlo.multiply %9, %5 : tensor<12x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<12x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %12 = stablehlo.divide %11, %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %13 = stablehlo.divide %cst_3, %cst_4 : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<12x8xf32>
    %15 = stablehlo.multiply %14, %10 : tensor<12x8xf32>
    %16 = stablehlo.multiply %15, %7 : tensor<12x8xf32>
    %17 = stablehlo.multiply %16, %5 : tensor<12x8xf32>
    %18 = stablehlo.add %16, %17 : tensor<12x8xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<12x8xf32>, tensor<f32>) -> tensor<8xf32>
    %20 = stablehlo.reshape %19 : (tensor<8xf32>) -> tensor<1x8xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%20 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %22 = stablehlo.convert %21 : (tensor<8xf32>) -> tensor<8xbf16>
    %23 = stablehlo.convert %18 : tensor<12x8xf32>
    %24 = stablehlo.convert %arg2 : (tensor<12x16xbf16>) -> tensor<12x16xf32>
    %25 = stablehlo.dot_general %23, %24, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x8xf32>, tensor<12x16xf32>) -> tensor<8x16xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %27 = stablehlo.convert %26 : (tensor<16x8xf32>) -> tensor<16x8xbf16>
    return %12, %27, %22 : tensor<f32>, tensor<16x8xbf16>, tensor<8xbf16>
  }
}
