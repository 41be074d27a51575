module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<169xf64>, %arg1: tensor<169xf64>, %arg2: tensor<169xi64>, %arg3: tensor<4x10xf64>) -> (tensor<169xf64> {jax.result_info = "result[0]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[5]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[6]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[7]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[8]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[9]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[10]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[11]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[12]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[13]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[14]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[15]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[16]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[17]"}, tensor<169xi1> {jax.result_info = "result[18]"}, tensor<169xi1> {jax.result_info = "result[19]"}, tensor<169xf64> {jax.result_info = "result[20]"}, tensor<169xf64> {jax.result_info = "result[21]"}, tensor<169xcomplex<f64>> {jax.result_info = "result[22]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[23]"}, tensor<4x4xcomplex<f64>> {jax.result_info = "result[24]"}, tensor<4x10xcomplex<f64>> {jax.result_info = "result[25]"}, tensor<4x10xf64> {jax.result_info = "result[26]"}, tensor<4x6xcomplex<f64>> {jax.result_info = "result[27]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<169xcomplex<f64>>
    %1 = stablehlo.reverse %arg3, dims = [0] : tensor<4x10xf64>
    %2 = stablehlo.complex %arg3, %1 : tensor<4x10xcomplex<f64>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<169xi64>
    %4 = stablehlo.compare LT, %arg2, %3, SIGNED : (tensor<169xi64>, tensor<169xi64>) -> tensor<169xi1>
    %c_0 = stablehlo.constant dense<169> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<169xi64>
    %6 = stablehlo.add %arg2, %5 : tensor<169xi64>
    %7 = stablehlo.select %4, %6, %arg2 : tensor<169xi1>, tensor<169xi64>
    %8 = stablehlo.convert %7 : (tensor<169xi64>) -> tensor<169xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<169xi32>) -> tensor<169x1xi32>
    %10 = "stablehlo.gather"(%0, %9) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<169xcomplex<f64>>, tensor<169x1xi32>) -> tensor<169xcomplex<f64>>
    %11 = stablehlo.real %10 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %12 = stablehlo.is_finite %11 : (tensor<169xf64>) -> tensor<169xi1>
    %13 = stablehlo.abs %11 : tensor<169xf64>
    %cst = stablehlo.constant dense<1.000000e+02> : tensor<f64>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %15 = stablehlo.compare GT, %13, %14, FLOAT : (tensor<169xf64>, tensor<169xf64>) -> tensor<169xi1>
    %16 = stablehlo.and %12, %15 : tensor<169xi1>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %17 = call @_where(%16, %cst_1, %11) : (tensor<169xi1>, tensor<f64>, tensor<169xf64>) -> tensor<169xf64>
    %18 = stablehlo.imag %10 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %19 = stablehlo.is_finite %18 : (tensor<169xf64>) -> tensor<169xi1>
    %20 = stablehlo.abs %18 : tensor<169xf64>
    %cst_2 = stablehlo.constant dense<1.000000e+02> : tensor<f64>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %22 = stablehlo.compare GT, %20, %21, FLOAT : (tensor<169xf64>, tensor<169xf64>) -> tensor<169xi1>
    %23 = stablehlo.and %19, %22 : tensor<169xi1>
    %cst_3 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %24 = call @_where(%23, %cst_3, %18) : (tensor<169xi1>, tensor<f64>, tensor<169xf64>) -> tensor<169xf64>
    %25 = stablehlo.complex %17, %24 : tensor<169xcomplex<f64>>
    %26 = stablehlo.power %0, %25 : tensor<169xcomplex<f64>>
    %27 = stablehlo.abs %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %28 = stablehlo.sign %0 : tensor<169xcomplex<f64>>
    %29 = stablehlo.exponential %0 : tensor<169xcomplex<f64>>
    %30 = stablehlo.exponential_minus_one %0 : tensor<169xcomplex<f64>>
    %31 = stablehlo.log %0 : tensor<169xcomplex<f64>>
    %32 = stablehlo.log_plus_one %0 : tensor<169xcomplex<f64>>
    %33 = stablehlo.sqrt %0 : tensor<169xcomplex<f64>>
    %34 = stablehlo.rsqrt %0 : tensor<169xcomplex<f64>>
    %35 = stablehlo.real %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %36 = stablehlo.imag %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %37 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %38 = stablehlo.compare EQ, %35, %37, FLOAT : (tensor<169xf64>, tensor<169xf64>) -> tensor<169xi1>
    %39 = stablehlo.sine %35 : tensor<169xf64>
    %40 = stablehlo.cosine %35 : tensor<169xf64>
    %41 = stablehlo.exponential_minus_one %36 : tensor<169xf64>
    %42 = stablehlo.negate %36 : tensor<169xf64>
    %43 = stablehlo.exponential_minus_one %42 : tensor<169xf64>
    %44 = stablehlo.subtract %41, %43 : tensor<169xf64>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %45 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %46 = stablehlo.divide %44, %45 : tensor<169xf64>
    %47 = stablehlo.add %41, %43 : tensor<169xf64>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %48 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %49 = stablehlo.add %47, %48 : tensor<169xf64>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %50 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %51 = stablehlo.divide %49, %50 : tensor<169xf64>
    %52 = stablehlo.multiply %39, %51 : tensor<169xf64>
    %53 = stablehlo.multiply %40, %46 : tensor<169xf64>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %54 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %55 = stablehlo.complex %54, %53 : tensor<169xcomplex<f64>>
    %56 = stablehlo.complex %52, %53 : tensor<169xcomplex<f64>>
    %57 = stablehlo.select %38, %55, %56 : tensor<169xi1>, tensor<169xcomplex<f64>>
    %58 = stablehlo.real %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %59 = stablehlo.imag %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %60 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %61 = stablehlo.compare EQ, %58, %60, FLOAT : (tensor<169xf64>, tensor<169xf64>) -> tensor<169xi1>
    %62 = stablehlo.sine %58 : tensor<169xf64>
    %63 = stablehlo.cosine %58 : tensor<169xf64>
    %64 = stablehlo.exponential_minus_one %59 : tensor<169xf64>
    %65 = stablehlo.negate %59 : tensor<169xf64>
    %66 = stablehlo.exponential_minus_one %65 : tensor<169xf64>
    %67 = stablehlo.subtract %64, %66 : tensor<169xf64>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %68 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %69 = stablehlo.divide %67, %68 : tensor<169xf64>
    %70 = stablehlo.add %64, %66 : tensor<169xf64>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %71 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %72 = stablehlo.add %70, %71 : tensor<169xf64>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %73 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %74 = stablehlo.divide %72, %73 : tensor<169xf64>
    %75 = stablehlo.multiply %63, %74 : tensor<169xf64>
    %76 = stablehlo.negate %62 : tensor<169xf64>
    %77 = stablehlo.multiply %76, %69 : tensor<169xf64>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %78 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %79 = stablehlo.complex %75, %78 : tensor<169xcomplex<f64>>
    %80 = stablehlo.complex %75, %77 : tensor<169xcomplex<f64>>
    %81 = stablehlo.select %61, %79, %80 : tensor<169xi1>, tensor<169xcomplex<f64>>
    %82 = stablehlo.tan %0 : tensor<169xcomplex<f64>>
    %83 = stablehlo.tanh %0 : tensor<169xcomplex<f64>>
    %84 = stablehlo.multiply %0, %10 : tensor<169xcomplex<f64>>
    %85 = stablehlo.divide %0, %10 : tensor<169xcomplex<f64>>
    %86 = stablehlo.add %0, %10 : tensor<169xcomplex<f64>>
    %87 = stablehlo.subtract %0, %10 : tensor<169xcomplex<f64>>
    %88 = stablehlo.negate %0 : tensor<169xcomplex<f64>>
    %89 = stablehlo.compare EQ, %0, %10, FLOAT : (tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>) -> tensor<169xi1>
    %90 = stablehlo.compare NE, %0, %10, FLOAT : (tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>) -> tensor<169xi1>
    %91 = stablehlo.real %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %92 = stablehlo.imag %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %93 = stablehlo.real %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %94 = stablehlo.imag %0 : (tensor<169xcomplex<f64>>) -> tensor<169xf64>
    %95 = stablehlo.negate %94 : tensor<169xf64>
    %96 = stablehlo.complex %93, %95 : tensor<169xcomplex<f64>>
    %97 = stablehlo.convert %0 : (tensor<169xcomplex<f64>>) -> tensor<169xcomplex<f32>>
    %98 = stablehlo.transpose %2, dims = [1, 0] : (tensor<4x10xcomplex<f64>>) -> tensor<10x4xcomplex<f64>>
    %99 = stablehlo.real %98 : (tensor<10x4xcomplex<f64>>) -> tensor<10x4xf64>
    %100 = stablehlo.imag %98 : (tensor<10x4xcomplex<f64>>) -> tensor<10x4xf64>
    %101 = stablehlo.negate %100 : tensor<10x4xf64>
    %102 = stablehlo.complex %99, %101 : tensor<10x4xcomplex<f64>>
    %103 = stablehlo.dot_general %2, %102, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x10xcomplex<f64>>, tensor<10x4xcomplex<f64>>) -> tensor<4x4xcomplex<f64>>
    %104 = call @fft(%2) : (tensor<4x10xcomplex<f64>>) -> tensor<4x10xcomplex<f64>>
    %105 = call @fft_0(%arg3) : (tensor<4x10xf64>) -> tensor<4x6xcomplex<f64>>
    %c_14 = stablehlo.constant dense<0> : tensor<i64>
    %106 = call @_pad(%105, %c_14) : (tensor<4x6xcomplex<f64>>, tensor<i64>) -> tensor<4x6xcomplex<f64>>
    %107 = call @fft_1(%106) : (tensor<4x6xcomplex<f64>>) -> tensor<4x10xf64>
    %108 = call @fft_2(%arg3) : (tensor<4x10xf64>) -> tensor<4x6xcomplex<f64>>
    return %27, %28, %29, %30, %31, %32, %33, %34, %57, %81, %82, %83, %84, %85, %26, %86, %87, %88, %89, %90, %91, %92, %96, %97, %103, %104, %107, %108 : tensor<169xf64>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f64>>, tensor<169xi1>, tensor<169xi1>, tensor<169xf64>, tensor<169xf64>, tensor<169xcomplex<f64>>, tensor<169xcomplex<f32>>, tensor<4x4xcomplex<f64>>, tensor<4x10xcomplex<f64>>, tensor<4x10xf64>, tensor<4x6xcomplex<f64>>
  }
  func.func private @_where(%arg0: tensor<169xi1>, %arg1: tensor<f64>, %arg2: tensor<169xf64>) -> tensor<169xf64> {
    %0 = stablehlo.convert %arg1 : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<169xf64>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<169xi1>, tensor<169xf64>
    return %2 : tensor<169xf64>
  }
  func.func private @fft(%arg0: tensor<4x10xcomplex<f64>>) -> tensor<4x10xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [10] : (tensor<4x10xcomplex<f64>>) -> tensor<4x10xcomplex<f64>>
    return %0 : tensor<4x10xcomplex<f64>>
  }
  func.func private @fft_0(%arg0: tensor<4x10xf64>) -> tensor<4x6xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [10] : (tensor<4x10xf64>) -> tensor<4x6xcomplex<f64>>
    return %0 : tensor<4x6xcomplex<f64>>
  }
  func.func private @_pad(%arg0: tensor<4x6xcomplex<f64>>, %arg1: tensor<i64>) -> tensor<4x6xcomplex<f64>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f64>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x6xcomplex<f64>>, tensor<complex<f64>>) -> tensor<4x6xcomplex<f64>>
    return %1 : tensor<4x6xcomplex<f64>>
  }
  func.func private @fft_1(%arg0: tensor<4x6xcomplex<f64>>) -> tensor<4x10xf64> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [10] : (tensor<4x6xcomplex<f64>>) -> tensor<4x10xf64>
    return %0 : tensor<4x10xf64>
  }
  func.func private @fft_2(%arg0: tensor<4x10xf64>) -> tensor<4x6xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [4, 10] : (tensor<4x10xf64>) -> tensor<4x6xcomplex<f64>>
    return %0 : tensor<4x6xcomplex<f64>>
  }
}
