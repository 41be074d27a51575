module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<5xf32>, %arg3: tensor<1x2x9x9xf32>, %arg4: tensor<3x2x3x3xf32>) -> (tensor<16xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<12xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<20xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<1x3x9x9xcomplex<f32>> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<16xcomplex<f32>>
    %1 = stablehlo.reverse %arg3, dims = [1] : tensor<1x2x9x9xf32>
    %2 = stablehlo.complex %arg3, %1 : tensor<1x2x9x9xcomplex<f32>>
    %3 = stablehlo.convert %arg4 : (tensor<3x2x3x3xf32>) -> tensor<3x2x3x3xcomplex<f32>>
    %cst = stablehlo.constant dense<(1.000000e+00,-1.000000e+00)> : tensor<complex<f32>>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<3x2x3x3xcomplex<f32>>
    %5 = stablehlo.multiply %3, %4 : tensor<3x2x3x3xcomplex<f32>>
    %6 = stablehlo.real %2 : (tensor<1x2x9x9xcomplex<f32>>) -> tensor<1x2x9x9xf32>
    %7 = stablehlo.imag %2 : (tensor<1x2x9x9xcomplex<f32>>) -> tensor<1x2x9x9xf32>
    %8 = stablehlo.real %5 : (tensor<3x2x3x3xcomplex<f32>>) -> tensor<3x2x3x3xf32>
    %9 = stablehlo.imag %5 : (tensor<3x2x3x3xcomplex<f32>>) -> tensor<3x2x3x3xf32>
    %10 = stablehlo.add %6, %7 : tensor<1x2x9x9xf32>
    %11 = stablehlo.convolution(%10, %8) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x9x9xf32>
    %12 = stablehlo.subtract %9, %8 : tensor<3x2x3x3xf32>
    %13 = stablehlo.convolution(%6, %12) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x9x9xf32>
    %14 = stablehlo.add %8, %9 : tensor<3x2x3x3xf32>
    %15 = stablehlo.convolution(%7, %14) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x2x9x9xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x9x9xf32>
    %16 = stablehlo.subtract %11, %15 : tensor<1x3x9x9xf32>
    %17 = stablehlo.add %11, %13 : tensor<1x3x9x9xf32>
    %18 = stablehlo.complex %16, %17 : tensor<1x3x9x9xcomplex<f32>>
    %19 = call @convolve(%0, %arg2) : (tensor<16xcomplex<f32>>, tensor<5xf32>) -> tensor<16xcomplex<f32>>
    %20 = stablehlo.slice %0 [0:5] : (tensor<16xcomplex<f32>>) -> tensor<5xcomplex<f32>>
    %21 = call @correlate(%0, %20) : (tensor<16xcomplex<f32>>, tensor<5xcomplex<f32>>) -> tensor<12xcomplex<f32>>
    %22 = stablehlo.slice %0 [0:5] : (tensor<16xcomplex<f32>>) -> tensor<5xcomplex<f32>>
    %23 = call @convolve_1(%arg0, %22) : (tensor<16xf32>, tensor<5xcomplex<f32>>) -> tensor<20xcomplex<f32>>
    return %19, %21, %23, %18 : tensor<16xcomplex<f32>>, tensor<12xcomplex<f32>>, tensor<20xcomplex<f32>>, tensor<1x3x9x9xcomplex<f32>>
  }
  func.func private @convolve(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<5xf32>) -> tensor<16xcomplex<f32>> {
    %0 = call @_conv(%arg0, %arg1) : (tensor<16xcomplex<f32>>, tensor<5xf32>) -> tensor<16xcomplex<f32>>
    return %0 : tensor<16xcomplex<f32>>
  }
  func.func private @_conv(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<5xf32>) -> tensor<16xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<5xf32>) -> tensor<5xcomplex<f32>>
    %1 = call @_flip(%0) : (tensor<5xcomplex<f32>>) -> tensor<5xcomplex<f32>>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<16xcomplex<f32>>) -> tensor<1x1x16xcomplex<f32>>
    %3 = stablehlo.broadcast_in_dim %1, dims = [2] : (tensor<5xcomplex<f32>>) -> tensor<1x1x5xcomplex<f32>>
    %4 = stablehlo.real %2 : (tensor<1x1x16xcomplex<f32>>) -> tensor<1x1x16xf32>
    %5 = stablehlo.imag %2 : (tensor<1x1x16xcomplex<f32>>) -> tensor<1x1x16xf32>
    %6 = stablehlo.real %3 : (tensor<1x1x5xcomplex<f32>>) -> tensor<1x1x5xf32>
    %7 = stablehlo.imag %3 : (tensor<1x1x5xcomplex<f32>>) -> tensor<1x1x5xf32>
    %8 = stablehlo.add %4, %5 : tensor<1x1x16xf32>
    %9 = stablehlo.convolution(%8, %6) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[2, 2]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x16xf32>
    %10 = stablehlo.subtract %7, %6 : tensor<1x1x5xf32>
    %11 = stablehlo.convolution(%4, %10) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[2, 2]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x16xf32>
    %12 = stablehlo.add %6, %7 : tensor<1x1x5xf32>
    %13 = stablehlo.convolution(%5, %12) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[2, 2]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x16xf32>
    %14 = stablehlo.subtract %9, %13 : tensor<1x1x16xf32>
    %15 = stablehlo.add %9, %11 : tensor<1x1x16xf32>
    %16 = stablehlo.complex %14, %15 : tensor<1x1x16xcomplex<f32>>
    %17 = stablehlo.reshape %16 : (tensor<1x1x16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    return %17 : tensor<16xcomplex<f32>>
  }
  func.func private @_flip(%arg0: tensor<5xcomplex<f32>>) -> tensor<5xcomplex<f32>> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<5xcomplex<f32>>
    return %0 : tensor<5xcomplex<f32>>
  }
  func.func private @correlate(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<5xcomplex<f32>>) -> tensor<12xcomplex<f32>> {
    %0 = call @_conv_0(%arg0, %arg1) : (tensor<16xcomplex<f32>>, tensor<5xcomplex<f32>>) -> tensor<12xcomplex<f32>>
    return %0 : tensor<12xcomplex<f32>>
  }
  func.func private @_conv_0(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<5xcomplex<f32>>) -> tensor<12xcomplex<f32>> {
    %0 = stablehlo.real %arg1 : (tensor<5xcomplex<f32>>) -> tensor<5xf32>
    %1 = stablehlo.imag %arg1 : (tensor<5xcomplex<f32>>) -> tensor<5xf32>
    %2 = stablehlo.negate %1 : tensor<5xf32>
    %3 = stablehlo.complex %0, %2 : tensor<5xcomplex<f32>>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<16xcomplex<f32>>) -> tensor<1x1x16xcomplex<f32>>
    %5 = stablehlo.broadcast_in_dim %3, dims = [2] : (tensor<5xcomplex<f32>>) -> tensor<1x1x5xcomplex<f32>>
    %6 = stablehlo.real %4 : (tensor<1x1x16xcomplex<f32>>) -> tensor<1x1x16xf32>
    %7 = stablehlo.imag %4 : (tensor<1x1x16xcomplex<f32>>) -> tensor<1x1x16xf32>
    %8 = stablehlo.real %5 : (tensor<1x1x5xcomplex<f32>>) -> tensor<1x1x5xf32>
    %9 = stablehlo.imag %5 : (tensor<1x1x5xcomplex<f32>>) -> tensor<1x1x5xf32>
    %10 = stablehlo.add %6, %7 : tensor<1x1x16xf32>
    %11 = stablehlo.convolution(%10, %8) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x12xf32>
    %12 = stablehlo.subtract %9, %8 : tensor<1x1x5xf32>
    %13 = stablehlo.convolution(%6, %12) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x12xf32>
    %14 = stablehlo.add %8, %9 : tensor<1x1x5xf32>
    %15 = stablehlo.convolution(%7, %14) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x12xf32>
    %16 = stablehlo.subtract %11, %15 : tensor<1x1x12xf32>
    %17 = stablehlo.add %11, %13 : tensor<1x1x12xf32>
    %18 = stablehlo.complex %16, %17 : tensor<1x1x12xcomplex<f32>>
    %19 = stablehlo.reshape %18 : (tensor<1x1x12xcomplex<f32>>) -> tensor<12xcomplex<f32>>
    return %19 : tensor<12xcomplex<f32>>
  }
  func.func private @convolve_1(%arg0: tensor<16xf32>, %arg1: tensor<5xcomplex<f32>>) -> tensor<20xcomplex<f32>> {
    %0 = call @_conv_2(%arg0, %arg1) : (tensor<16xf32>, tensor<5xcomplex<f32>>) -> tensor<20xcomplex<f32>>
    return %0 : tensor<20xcomplex<f32>>
  }
  func.func private @_conv_2(%arg0: tensor<16xf32>, %arg1: tensor<5xcomplex<f32>>) -> tensor<20xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %1 = call @_flip(%arg1) : (tensor<5xcomplex<f32>>) -> tensor<5xcomplex<f32>>
    %2 = stablehlo.broadcast_in_dim %0, dims = [2] : (tensor<16xcomplex<f32>>) -> tensor<1x1x16xcomplex<f32>>
    %3 = stablehlo.broadcast_in_dim %1, dims = [2] : (tensor<5xcomplex<f32>>) -> tensor<1x1x5xcomplex<f32>>
    %4 = stablehlo.real %2 : (tensor<1x1x16xcomplex<f32>>) -> tensor<1x1x16xf32>
    %5 = stablehlo.imag %2 : (tensor<1x1x16xcomplex<f32>>) -> tensor<1x1x16xf32>
    %6 = stablehlo.real %3 : (tensor<1x1x5xcomplex<f32>>) -> tensor<1x1x5xf32>
    %7 = stablehlo.imag %3 : (tensor<1x1x5xcomplex<f32>>) -> tensor<1x1x5xf32>
    %8 = stablehlo.add %4, %5 : tensor<1x1x16xf32>
    %9 = stablehlo.convolution(%8, %6) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[4, 4]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x20xf32>
    %10 = stablehlo.subtract %7, %6 : tensor<1x1x5xf32>
    %11 = stablehlo.convolution(%4, %10) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[4, 4]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x20xf32>
    %12 = stablehlo.add %6, %7 : tensor<1x1x5xf32>
    %13 = stablehlo.convolution(%5, %12) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[4, 4]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x16xf32>, tensor<1x1x5xf32>) -> tensor<1x1x20xf32>
    %14 = stablehlo.subtract %9, %13 : tensor<1x1x20xf32>
    %15 = stablehlo.add %9, %11 : tensor<1x1x20xf32>
    %16 = stablehlo.complex %14, %15 : tensor<1x1x20xcomplex<f32>>
    %17 = stablehlo.reshape %16 : (tensor<1x1x20xcomplex<f32>>) -> tensor<20xcomplex<f32>>
    return %17 : tensor<20xcomplex<f32>>
  }
}
