module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x12xf32>, %arg1: tensor<3x12xf32>, %arg2: tensor<2x4x6x5xf32>) -> (tensor<3x12xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x12xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<3x7xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<3x6xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<3x12xf32> {jax.result_info = "result[4]"}, tensor<3x11xf32> {jax.result_info = "result[5]"}, tensor<3x3x4xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<2x4x6x3xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<2x4x6x5xf32> {jax.result_info = "result[8]"}, tensor<3x12xf32> {jax.result_info = "result[9]"}, tensor<3x12xcomplex<f32>> {jax.result_info = "result[10]"}, tensor<3x12xcomplex<f32>> {jax.result_info = "result[11]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<3x12xcomplex<f32>>
    %1 = call @fft(%arg0) : (tensor<3x12xf32>) -> tensor<3x7xcomplex<f32>>
    %2 = call @fft_0(%0) : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    %3 = call @fft_1(%0) : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    %4 = stablehlo.slice %arg0 [0:3, 0:11] : (tensor<3x12xf32>) -> tensor<3x11xf32>
    %5 = call @fft_2(%4) : (tensor<3x11xf32>) -> tensor<3x6xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = call @_pad(%1, %c) : (tensor<3x7xcomplex<f32>>, tensor<i32>) -> tensor<3x7xcomplex<f32>>
    %7 = call @fft_3(%6) : (tensor<3x7xcomplex<f32>>) -> tensor<3x12xf32>
    %8 = stablehlo.slice %1 [0:3, 0:6] : (tensor<3x7xcomplex<f32>>) -> tensor<3x6xcomplex<f32>>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %9 = call @_pad_4(%8, %c_0) : (tensor<3x6xcomplex<f32>>, tensor<i32>) -> tensor<3x6xcomplex<f32>>
    %10 = call @fft_5(%9) : (tensor<3x6xcomplex<f32>>) -> tensor<3x11xf32>
    %11 = stablehlo.reshape %0 : (tensor<3x12xcomplex<f32>>) -> tensor<3x3x4xcomplex<f32>>
    %12 = call @fft_6(%11) : (tensor<3x3x4xcomplex<f32>>) -> tensor<3x3x4xcomplex<f32>>
    %13 = call @fft_7(%arg2) : (tensor<2x4x6x5xf32>) -> tensor<2x4x6x3xcomplex<f32>>
    %14 = call @fft_8(%arg2) : (tensor<2x4x6x5xf32>) -> tensor<2x4x6x3xcomplex<f32>>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %15 = call @_pad_9(%14, %c_1) : (tensor<2x4x6x3xcomplex<f32>>, tensor<i32>) -> tensor<2x4x6x3xcomplex<f32>>
    %16 = call @fft_10(%15) : (tensor<2x4x6x3xcomplex<f32>>) -> tensor<2x4x6x5xf32>
    %17 = call @fft_0(%0) : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    %18 = stablehlo.abs %17 : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xf32>
    %19 = call @_roll_static(%18) : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %20 = call @fft_0(%0) : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    %21 = call @fft_1(%20) : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    %22 = stablehlo.subtract %21, %0 : tensor<3x12xcomplex<f32>>
    %23 = stablehlo.transpose %0, dims = [1, 0] : (tensor<3x12xcomplex<f32>>) -> tensor<12x3xcomplex<f32>>
    %24 = call @fft_11(%23) : (tensor<12x3xcomplex<f32>>) -> tensor<12x3xcomplex<f32>>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<12x3xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    return %2, %3, %1, %5, %7, %10, %12, %13, %16, %19, %22, %25 : tensor<3x12xcomplex<f32>>, tensor<3x12xcomplex<f32>>, tensor<3x7xcomplex<f32>>, tensor<3x6xcomplex<f32>>, tensor<3x12xf32>, tensor<3x11xf32>, tensor<3x3x4xcomplex<f32>>, tensor<2x4x6x3xcomplex<f32>>, tensor<2x4x6x5xf32>, tensor<3x12xf32>, tensor<3x12xcomplex<f32>>, tensor<3x12xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<3x12xf32>) -> tensor<3x7xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [12] : (tensor<3x12xf32>) -> tensor<3x7xcomplex<f32>>
    return %0 : tensor<3x7xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [12] : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    return %0 : tensor<3x12xcomplex<f32>>
  }
  func.func private @fft_1(%arg0: tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [12] : (tensor<3x12xcomplex<f32>>) -> tensor<3x12xcomplex<f32>>
    return %0 : tensor<3x12xcomplex<f32>>
  }
  func.func private @fft_2(%arg0: tensor<3x11xf32>) -> tensor<3x6xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [11] : (tensor<3x11xf32>) -> tensor<3x6xcomplex<f32>>
    return %0 : tensor<3x6xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<3x7xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<3x7xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<3x7xcomplex<f32>>, tensor<complex<f32>>) -> tensor<3x7xcomplex<f32>>
    return %1 : tensor<3x7xcomplex<f32>>
  }
  func.func private @fft_3(%arg0: tensor<3x7xcomplex<f32>>) -> tensor<3x12xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [12] : (tensor<3x7xcomplex<f32>>) -> tensor<3x12xf32>
    return %0 : tensor<3x12xf32>
  }
  func.func private @_pad_4(%arg0: tensor<3x6xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<3x6xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<3x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<3x6xcomplex<f32>>
    return %1 : tensor<3x6xcomplex<f32>>
  }
  func.func private @fft_5(%arg0: tensor<3x6xcomplex<f32>>) -> tensor<3x11xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [11] : (tensor<3x6xcomplex<f32>>) -> tensor<3x11xf32>
    return %0 : tensor<3x11xf32>
  }
  func.func private @fft_6(%arg0: tensor<3x3x4xcomplex<f32>>) -> tensor<3x3x4xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [3, 4] : (tensor<3x3x4xcomplex<f32>>) -> tensor<3x3x4xcomplex<f32>>
    return %0 : tensor<3x3x4xcomplex<f32>>
  }
  func.func private @fft_7(%arg0: tensor<2x4x6x5xf32>) -> tensor<2x4x6x3xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [4, 6, 5] : (tensor<2x4x6x5xf32>) -> tensor<2x4x6x3xcomplex<f32>>
    return %0 : tensor<2x4x6x3xcomplex<f32>>
  }
  func.func private @fft_8(%arg0: tensor<2x4x6x5xf32>) -> tensor<2x4x6x3xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [6, 5] : (tensor<2x4x6x5xf32>) -> tensor<2x4x6x3xcomplex<f32>>
    return %0 : tensor<2x4x6x3xcomplex<f32>>
  }
  func.func private @_pad_9(%arg0: tensor<2x4x6x3xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<2x4x6x3xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x4x6x3xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x4x6x3xcomplex<f32>>
    return %1 : tensor<2x4x6x3xcomplex<f32>>
  }
  func.func private @fft_10(%arg0: tensor<2x4x6x3xcomplex<f32>>) -> tensor<2x4x6x5xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [6, 5] : (tensor<2x4x6x3xcomplex<f32>>) -> tensor<2x4x6x5xf32>
    return %0 : tensor<2x4x6x5xf32>
  }
  func.func private @_roll_static(%arg0: tensor<3x12xf32>) -> tensor<3x12xf32> {
    %0 = stablehlo.slice %arg0 [0:3, 6:12] : (tensor<3x12xf32>) -> tensor<3x6xf32>
    %1 = stablehlo.slice %arg0 [0:3, 0:6] : (tensor<3x12xf32>) -> tensor<3x6xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<3x6xf32>, tensor<3x6xf32>) -> tensor<3x12xf32>
    return %2 : tensor<3x12xf32>
  }
  func.func private @fft_11(%arg0: tensor<12x3xcomplex<f32>>) -> tensor<12x3xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [3] : (tensor<12x3xcomplex<f32>>) -> tensor<12x3xcomplex<f32>>
    return %0 : tensor<12x3xcomplex<f32>>
  }
}
