module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x8x6x6xf32>, %arg1: tensor<8x4x1x1xf32>, %arg2: tensor<8x1x3x3xf32>, %arg3: tensor<8x4x1x1xf32>) -> (tensor<1x8x6x6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32>
    %1 = call @relu(%0) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %2 = stablehlo.reshape %1 : (tensor<1x8x6x6xf32>) -> tensor<1x2x4x6x6xf32>
    %3 = stablehlo.transpose %2, dims = [0, 2, 1, 3, 4] : (tensor<1x2x4x6x6xf32>) -> tensor<1x4x2x6x6xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x4x2x6x6xf32>) -> tensor<1x8x6x6xf32>
    %5 = stablehlo.convolution(%4, %arg2) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x6x6xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x6x6xf32>
    %6 = stablehlo.convolution(%5, %arg3) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x8x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %7 = call @clip(%6, %c, %c_0) : (tensor<1x8x6x6xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8x6x6xf32>
    return %7 : tensor<1x8x6x6xf32>
  }
  func.func private @relu(%arg0: tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x8x6x6xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x8x6x6xf32>
    return %1 : tensor<1x8x6x6xf32>
  }
  func.func private @clip(%arg0: tensor<1x8x6x6xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<1x8x6x6xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x8x6x6xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<1x8x6x6xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<1x8x6x6xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<1x8x6x6xf32>
    return %5 : tensor<1x8x6x6xf32>
  }
}
