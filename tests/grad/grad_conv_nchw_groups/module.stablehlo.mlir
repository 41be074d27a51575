module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x2x3x3xf32>, %arg1: tensor<4x6x2x2xf32>, %arg2: tensor<2x4x11x9xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<6x2x3x3xf32> {jax.result_info = "result[1]"}, tensor<4x6x2x2xf32> {jax.result_info = "result[2]"}, tensor<2x4x11x9xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.convolution(%arg2, %arg0) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 2], pad = [[2, 1], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x11x9xf32>, tensor<6x2x3x3xf32>) -> tensor<2x6x10x5xf32>
    %1 = stablehlo.sine %0 : tensor<2x6x10x5xf32>
    %2 = stablehlo.cosine %0 : tensor<2x6x10x5xf32>
    %3 = stablehlo.convolution(%1, %arg1) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x6x10x5xf32>, tensor<4x6x2x2xf32>) -> tensor<2x4x20x5xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<2x4x20x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2, 3] : (tensor<2x4x20x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %6 = stablehlo.multiply %5, %cst_0 : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %7 = stablehlo.multiply %cst_1, %cst_2 : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<2x4x20x5xf32>
    %9 = stablehlo.multiply %3, %8 : tensor<2x4x20x5xf32>
    %10 = stablehlo.multiply %8, %3 : tensor<2x4x20x5xf32>
    %11 = stablehlo.add %9, %10 : tensor<2x4x20x5xf32>
    %12 = stablehlo.convolution(%1, %11) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 0]], lhs_dilate = [2, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x6x10x5xf32>, tensor<2x4x20x5xf32>) -> tensor<4x6x2x2xf32>
    %13 = stablehlo.reverse %arg1, dims = [2, 3] : tensor<4x6x2x2xf32>
    %14 = stablehlo.convolution(%11, %13) dim_numbers = [b, f, 0, 1]x[i, o, 0, 1]->[b, f, 0, 1], window = {stride = [2, 1], pad = [[0, 0], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x20x5xf32>, tensor<4x6x2x2xf32>) -> tensor<2x6x10x5xf32>
    %15 = stablehlo.multiply %14, %2 : tensor<2x6x10x5xf32>
    %16 = stablehlo.convolution(%arg2, %15) dim_numbers = [f, b, 0, 1]x[i, o, 0, 1]->[f, b, 0, 1], window = {stride = [2, 1], pad = [[2, 1], [0, 2]], lhs_dilate = [1, 1], rhs_dilate = [1, 2], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x11x9xf32>, tensor<2x6x10x5xf32>) -> tensor<6x2x3x3xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<6x2x3x3xf32>) -> tensor<2x3x2x3x3xf32>
    %18 = stablehlo.transpose %17, dims = [1, 0, 2, 3, 4] : (tensor<2x3x2x3x3xf32>) -> tensor<3x2x2x3x3xf32>
    %19 = stablehlo.reshape %18 : (tensor<3x2x2x3x3xf32>) -> tensor<3x4x3x3xf32>
    %20 = stablehlo.reverse %19, dims = [2, 3] : tensor<3x4x3x3xf32>
    %21 = stablehlo.convolution(%15, %20) dim_numbers = [b, f, 0, 1]x[i, o, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[2, 3], [2, 0]], lhs_dilate = [1, 2], rhs_dilate = [2, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x6x10x5xf32>, tensor<3x4x3x3xf32>) -> tensor<2x4x11x9xf32>
    return %6, %16, %12, %21 : tensor<f32>, tensor<6x2x3x3xf32>, tensor<4x6x2x2xf32>, tensor<2x4x11x9xf32>
  }
}
