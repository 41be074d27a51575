module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x32x8xf32>, %arg1: tensor<3x8x16xf32>, %arg2: tensor<3x1x8xf32>, %arg3: tensor<2x8x8xf32>) -> (tensor<2x32x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = call @_pad(%arg0, %c) : (tensor<2x32x8xf32>, tensor<i32>) -> tensor<2x36x8xf32>
    %1 = stablehlo.convolution(%0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [2], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x36x8xf32>, tensor<3x8x16xf32>) -> tensor<2x32x16xf32>
    %2 = stablehlo.slice %1 [0:2, 0:32, 0:8] : (tensor<2x32x16xf32>) -> tensor<2x32x8xf32>
    %3 = stablehlo.slice %1 [0:2, 0:32, 8:16] : (tensor<2x32x16xf32>) -> tensor<2x32x8xf32>
    %4 = stablehlo.tanh %2 : tensor<2x32x8xf32>
    %5 = stablehlo.negate %3 : tensor<2x32x8xf32>
    %6 = stablehlo.exponential %5 : tensor<2x32x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x8xf32>
    %8 = stablehlo.add %7, %6 : tensor<2x32x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x32x8xf32>
    %10 = stablehlo.divide %9, %8 : tensor<2x32x8xf32>
    %11 = stablehlo.multiply %4, %10 : tensor<2x32x8xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %12 = call @_pad_0(%11, %c_1) : (tensor<2x32x8xf32>, tensor<i32>) -> tensor<2x40x8xf32>
    %13 = stablehlo.convolution(%12, %arg2) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [4], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 8 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x40x8xf32>, tensor<3x1x8xf32>) -> tensor<2x32x8xf32>
    %14 = call @relu(%13) : (tensor<2x32x8xf32>) -> tensor<2x32x8xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %15 = call @_pad_0(%14, %c_2) : (tensor<2x32x8xf32>, tensor<i32>) -> tensor<2x40x8xf32>
    %16 = stablehlo.convolution(%15, %arg3) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [8], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x40x8xf32>, tensor<2x8x8xf32>) -> tensor<2x32x8xf32>
    %17 = stablehlo.add %arg0, %16 : tensor<2x32x8xf32>
    return %17 : tensor<2x32x8xf32>
  }
  func.func private @_pad(%arg0: tensor<2x32x8xf32>, %arg1: tensor<i32>) -> tensor<2x36x8xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 4, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<2x32x8xf32>, tensor<f32>) -> tensor<2x36x8xf32>
    return %1 : tensor<2x36x8xf32>
  }
  func.func private @_pad_0(%arg0: tensor<2x32x8xf32>, %arg1: tensor<i32>) -> tensor<2x40x8xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 8, 0], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<2x32x8xf32>, tensor<f32>) -> tensor<2x40x8xf32>
    return %1 : tensor<2x40x8xf32>
  }
  func.func private @relu(%arg0: tensor<2x32x8xf32>) -> tensor<2x32x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x32x8xf32>
    return %1 : tensor<2x32x8xf32>
  }
}
