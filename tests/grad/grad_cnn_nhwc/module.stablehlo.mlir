module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x3x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<32x4xf32>, %arg3: tensor<2x17x17x3xf32>, %arg4: tensor<2x4xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<3x3x3x8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<32x4xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.convolution(%arg3, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x17x17x3xf32>, tensor<3x3x3x8xf32>) -> tensor<2x9x9x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<2x9x9x8xf32>
    %3 = stablehlo.add %0, %2 : tensor<2x9x9x8xf32>
    %4 = call @relu(%3) : (tensor<2x9x9x8xf32>) -> tensor<2x9x9x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x9x9x8xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<2x9x9x8xf32>, tensor<2x9x9x8xf32>) -> tensor<2x9x9x8xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x9x9x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.reduce_window"(%4, %8) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %43 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<2x9x9x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
    %cst_2 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %11 = stablehlo.divide %9, %10 : tensor<2x8x8x8xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<f32>
    %13 = "stablehlo.reduce_window"(%11, %12) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %43 = stablehlo.maximum %arg5, %arg6 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x3x3x8xf32>
    %14 = stablehlo.reshape %13 : (tensor<2x3x3x8xf32>) -> tensor<2x72xf32>
    %15 = stablehlo.slice %14 [0:2, 0:32] : (tensor<2x72xf32>) -> tensor<2x32xf32>
    %16 = stablehlo.dot_general %15, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x32xf32>, tensor<32x4xf32>) -> tensor<2x4xf32>
    %17 = stablehlo.subtract %16, %arg4 : tensor<2x4xf32>
    %18 = stablehlo.multiply %17, %17 : tensor<2x4xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %20 = stablehlo.multiply %19, %17 : tensor<2x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%18 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %23 = stablehlo.multiply %22, %20 : tensor<2x4xf32>
    %24 = stablehlo.dot_general %23, %15, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<2x32xf32>) -> tensor<4x32xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<4x32xf32>) -> tensor<32x4xf32>
    %26 = stablehlo.dot_general %23, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4xf32>, tensor<32x4xf32>) -> tensor<2x32xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.pad %26, %cst_7, low = [0, 0], high = [0, 40], interior = [0, 0] : (tensor<2x32xf32>, tensor<f32>) -> tensor<2x72xf32>
    %28 = stablehlo.reshape %27 : (tensor<2x72xf32>) -> tensor<2x3x3x8xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %29 = stablehlo.pad %11, %cst_8, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = "stablehlo.select_and_scatter"(%29, %28, %cst_9) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %43 = stablehlo.compare GE, %arg5, %arg6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    }, {
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %43 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<2x8x8x8xf32>, tensor<2x3x3x8xf32>, tensor<f32>) -> tensor<2x8x8x8xf32>
    %31 = stablehlo.slice %30 [0:2, 0:8, 0:8, 0:8] : (tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %cst_10 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x8x8x8xf32>
    %33 = stablehlo.divide %31, %32 : tensor<2x8x8x8xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.pad %33, %cst_11, low = [0, 1, 1, 0], high = [0, 1, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x8x8x8xf32>, tensor<f32>) -> tensor<2x10x10x8xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<f32>
    %36 = "stablehlo.reduce_window"(%34, %35) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 1, 1, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %43 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %43 : tensor<f32>
    }) : (tensor<2x10x10x8xf32>, tensor<f32>) -> tensor<2x9x9x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x9x9x8xf32>
    %38 = stablehlo.select %6, %36, %37 : tensor<2x9x9x8xi1>, tensor<2x9x9x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%38 init: %cst_14) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x9x9x8xf32>, tensor<f32>) -> tensor<8xf32>
    %40 = stablehlo.reshape %39 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_15) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %42 = stablehlo.convolution(%arg3, %38) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x17x17x3xf32>, tensor<2x9x9x8xf32>) -> tensor<3x3x3x8xf32>
    return %21, %42, %41, %25 : tensor<f32>, tensor<3x3x3x8xf32>, tensor<8xf32>, tensor<32x4xf32>
  }
  func.func private @relu(%arg0: tensor<2x9x9x8xf32>) -> tensor<2x9x9x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x9x9x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x9x9x8xf32>
    return %1 : tensor<2x9x9x8xf32>
  }
}
