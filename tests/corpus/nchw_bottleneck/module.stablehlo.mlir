module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x8x8x8xf32>, %arg1: tensor<4x8x1x1xf32>, %arg2: tensor<4x4x3x3xf32>, %arg3: tensor<16x4x1x1xf32>, %arg4: tensor<16x8x1x1xf32>, %arg5: tensor<4xf32>, %arg6: tensor<4xf32>, %arg7: tensor<16xf32>) -> (tensor<1x16x4x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x8xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x4x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<1x4x4x4xf32>
    %cst = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x4x4x4xf32>
    %5 = stablehlo.add %3, %4 : tensor<1x4x4x4xf32>
    %6 = call @relu(%5) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %7 = stablehlo.convolution(%6, %arg2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
    %8 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2, 3] : (tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %10 = stablehlo.multiply %7, %9 : tensor<1x4x4x4xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x4x4x4xf32>
    %12 = stablehlo.add %10, %11 : tensor<1x4x4x4xf32>
    %13 = call @relu(%12) : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %14 = stablehlo.convolution(%13, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x4x4xf32>, tensor<16x4x1x1xf32>) -> tensor<1x16x4x4xf32>
    %15 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<16xf32>) -> tensor<1x16x1x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2, 3] : (tensor<1x16x1x1xf32>) -> tensor<1x16x4x4xf32>
    %17 = stablehlo.multiply %14, %16 : tensor<1x16x4x4xf32>
    %cst_1 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x16x4x4xf32>
    %19 = stablehlo.add %17, %18 : tensor<1x16x4x4xf32>
    %20 = stablehlo.convolution(%arg0, %arg4) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x8x8xf32>, tensor<16x8x1x1xf32>) -> tensor<1x16x4x4xf32>
    %21 = stablehlo.add %19, %20 : tensor<1x16x4x4xf32>
    %22 = call @relu_0(%21) : (tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32>
    return %22 : tensor<1x16x4x4xf32>
  }
  func.func private @relu(%arg0: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x4x4x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x4x4x4xf32>
    return %1 : tensor<1x4x4x4xf32>
  }
  func.func private @relu_0(%arg0: tensor<1x16x4x4xf32>) -> tensor<1x16x4x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x16x4x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x16x4x4xf32>
    return %1 : tensor<1x16x4x4xf32>
  }
}
