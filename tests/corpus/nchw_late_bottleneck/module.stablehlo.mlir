module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x16x3x3xf32>, %arg1: tensor<4x16x1x1xf32>, %arg2: tensor<4x4x3x3xf32>, %arg3: tensor<16x4x1x1xf32>, %arg4: tensor<4xf32>, %arg5: tensor<4xf32>, %arg6: tensor<16xf32>) -> (tensor<1x16xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x16x3x3xf32>, tensor<4x16x1x1xf32>) -> tensor<1x4x3x3xf32>
    %1 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %3 = stablehlo.add %0, %2 : tensor<1x4x3x3xf32>
    %4 = call @relu(%3) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %5 = stablehlo.convolution(%4, %arg2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x3x3xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %6 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<4xf32>) -> tensor<1x4x1x1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1, 2, 3] : (tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %8 = stablehlo.add %5, %7 : tensor<1x4x3x3xf32>
    %9 = call @relu(%8) : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %10 = stablehlo.convolution(%9, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x4x3x3xf32>, tensor<16x4x1x1xf32>) -> tensor<1x16x3x3xf32>
    %11 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<16xf32>) -> tensor<1x16x1x1xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x16x1x1xf32>) -> tensor<1x16x3x3xf32>
    %13 = stablehlo.add %10, %12 : tensor<1x16x3x3xf32>
    %14 = stablehlo.add %13, %arg0 : tensor<1x16x3x3xf32>
    %15 = call @relu_0(%14) : (tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst) applies stablehlo.add across dimensions = [2, 3] : (tensor<1x16x3x3xf32>, tensor<f32>) -> tensor<1x16xf32>
    %cst_0 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x16xf32>
    %18 = stablehlo.divide %16, %17 : tensor<1x16xf32>
    return %18 : tensor<1x16xf32>
  }
  func.func private @relu(%arg0: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x4x3x3xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x4x3x3xf32>
    return %1 : tensor<1x4x3x3xf32>
  }
  func.func private @relu_0(%arg0: tensor<1x16x3x3xf32>) -> tensor<1x16x3x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x16x3x3xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x16x3x3xf32>
    return %1 : tensor<1x16x3x3xf32>
  }
}
