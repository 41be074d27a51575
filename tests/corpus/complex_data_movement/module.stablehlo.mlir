module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x6x6xf32>, %arg1: tensor<2x6x6xf32>, %arg2: tensor<5xi32>) -> (tensor<2x5x6xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<2x2x3xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<2x9x7xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<2x12x6xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<6x2x6xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<6xcomplex<f32>> {jax.result_info = "result[8]"}, tensor<complex<f32>> {jax.result_info = "result[9]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[10]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[11]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[12]"}, tensor<2x6x6xcomplex<f32>> {jax.result_info = "result[13]"}, tensor<2x6x6xf32> {jax.result_info = "result[14]"}, tensor<2x6x6xf32> {jax.result_info = "result[15]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<2x6x6xcomplex<f32>>
    %1 = stablehlo.slice %arg2 [0:1] : (tensor<5xi32>) -> tensor<1xi32>
    %2 = stablehlo.reshape %1 : (tensor<1xi32>) -> tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %4 = stablehlo.compare LT, %arg2, %3, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %6 = stablehlo.add %arg2, %5 : tensor<5xi32>
    %7 = stablehlo.select %4, %6, %arg2 : tensor<5xi1>, tensor<5xi32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %9 = "stablehlo.gather"(%0, %8) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1, 6>}> : (tensor<2x6x6xcomplex<f32>>, tensor<5x1xi32>) -> tensor<2x5x6xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %11 = stablehlo.slice %0 [0:2, 0:1, 0:5] : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x1x5xcomplex<f32>>
    %12 = stablehlo.reshape %11 : (tensor<2x1x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %14 = stablehlo.compare LT, %arg2, %13, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_2 = stablehlo.constant dense<6> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %16 = stablehlo.add %arg2, %15 : tensor<5xi32>
    %17 = stablehlo.select %14, %16, %arg2 : tensor<5xi1>, tensor<5xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %19 = stablehlo.convert %18 : tensor<5xi32>
    %20 = stablehlo.broadcast_in_dim %17, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %21 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %22 = stablehlo.concatenate %20, %21, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %23 = "stablehlo.scatter"(%10, %22, %12) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<complex<f32>>, %arg4: tensor<complex<f32>>):
      %64 = stablehlo.add %arg3, %arg4 : tensor<complex<f32>>
      stablehlo.return %64 : tensor<complex<f32>>
    }) : (tensor<2x6x6xcomplex<f32>>, tensor<5x2xi32>, tensor<2x5xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %24 = stablehlo.compare LT, %2, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_5 = stablehlo.constant dense<6> : tensor<i32>
    %25 = stablehlo.add %2, %c_5 : tensor<i32>
    %26 = stablehlo.select %24, %25, %2 : tensor<i1>, tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<1> : tensor<i32>
    %27 = stablehlo.dynamic_slice %0, %c_6, %26, %c_7, sizes = [2, 2, 3] : (tensor<2x6x6xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x3xcomplex<f32>>
    %cst_8 = stablehlo.constant dense<(0.000000e+00,2.000000e+00)> : tensor<complex<f32>>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<complex<f32>>) -> tensor<2x2x3xcomplex<f32>>
    %29 = stablehlo.multiply %27, %28 : tensor<2x2x3xcomplex<f32>>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %30 = stablehlo.compare LT, %2, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_10 = stablehlo.constant dense<6> : tensor<i32>
    %31 = stablehlo.add %2, %c_10 : tensor<i32>
    %32 = stablehlo.select %30, %31, %2 : tensor<i1>, tensor<i32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %c_12 = stablehlo.constant dense<1> : tensor<i32>
    %33 = stablehlo.dynamic_update_slice %0, %29, %c_11, %c_12, %32 : (tensor<2x6x6xcomplex<f32>>, tensor<2x2x3xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x6x6xcomplex<f32>>
    %cst_13 = stablehlo.constant dense<(1.500000e+00,-5.000000e-01)> : tensor<complex<f32>>
    %34 = call @_pad(%0, %cst_13) : (tensor<2x6x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x9x7xcomplex<f32>>
    %35 = stablehlo.real %0 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %36 = stablehlo.imag %0 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %37 = stablehlo.negate %36 : tensor<2x6x6xf32>
    %38 = stablehlo.complex %35, %37 : tensor<2x6x6xcomplex<f32>>
    %39 = stablehlo.concatenate %0, %38, dim = 1 : (tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>) -> tensor<2x12x6xcomplex<f32>>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x6x6xf32>
    %41 = stablehlo.compare GT, %arg0, %40, FLOAT : (tensor<2x6x6xf32>, tensor<2x6x6xf32>) -> tensor<2x6x6xi1>
    %cst_15 = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %42 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<complex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %43 = stablehlo.multiply %0, %42 : tensor<2x6x6xcomplex<f32>>
    %44 = call @_where(%41, %0, %43) : (tensor<2x6x6xi1>, tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %45 = stablehlo.transpose %0, dims = [0, 2, 1] : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %46 = stablehlo.real %45 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %47 = stablehlo.imag %45 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %48 = stablehlo.negate %47 : tensor<2x6x6xf32>
    %49 = stablehlo.complex %46, %48 : tensor<2x6x6xcomplex<f32>>
    %50 = stablehlo.dot_general %0, %49, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %51 = stablehlo.convert %0 : tensor<2x6x6xcomplex<f32>>
    %52 = stablehlo.convert %arg0 : (tensor<2x6x6xf32>) -> tensor<2x6x6xcomplex<f32>>
    %53 = stablehlo.dot_general %51, %52, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %54 = stablehlo.transpose %0, dims = [2, 0, 1] : (tensor<2x6x6xcomplex<f32>>) -> tensor<6x2x6xcomplex<f32>>
    %cst_16 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %55 = stablehlo.reduce(%0 init: %cst_16) applies stablehlo.add across dimensions = [0, 2] : (tensor<2x6x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6xcomplex<f32>>
    %56 = stablehlo.multiply %0, %0 : tensor<2x6x6xcomplex<f32>>
    %cst_17 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %57 = stablehlo.reduce(%56 init: %cst_17) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x6x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    %58 = call @cumsum(%0) : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %59 = stablehlo.convert %arg0 : (tensor<2x6x6xf32>) -> tensor<2x6x6xcomplex<f32>>
    %cst_18 = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %60 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<complex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    %61 = stablehlo.add %59, %60 : tensor<2x6x6xcomplex<f32>>
    %62 = stablehlo.abs %50 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %63 = call @angle(%0) : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    return %9, %23, %27, %33, %34, %39, %54, %44, %55, %57, %58, %50, %53, %61, %62, %63 : tensor<2x5x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<2x2x3xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<2x9x7xcomplex<f32>>, tensor<2x12x6xcomplex<f32>>, tensor<6x2x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<complex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xcomplex<f32>>, tensor<2x6x6xf32>, tensor<2x6x6xf32>
  }
  func.func private @_pad(%arg0: tensor<2x6x6xcomplex<f32>>, %arg1: tensor<complex<f32>>) -> tensor<2x9x7xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 1, 0], high = [0, 2, 1], interior = [0, 0, 0] : (tensor<2x6x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x9x7xcomplex<f32>>
    return %1 : tensor<2x9x7xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<2x6x6xi1>, %arg1: tensor<2x6x6xcomplex<f32>>, %arg2: tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<2x6x6xi1>, tensor<2x6x6xcomplex<f32>>
    return %0 : tensor<2x6x6xcomplex<f32>>
  }
  func.func private @cumsum(%arg0: tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>> {
    %0 = call @cumsum_0(%arg0) : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    return %0 : tensor<2x6x6xcomplex<f32>>
  }
  func.func private @cumsum_0(%arg0: tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xcomplex<f32>> {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<complex<f32>>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1, 1>, padding = dense<[[0, 0], [0, 0], [5, 0]]> : tensor<3x2xi64>, window_dilations = array<i64: 1, 1, 1>, window_dimensions = array<i64: 1, 1, 6>, window_strides = array<i64: 1, 1, 1>}> ({
    ^bb0(%arg1: tensor<complex<f32>>, %arg2: tensor<complex<f32>>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<complex<f32>>
      stablehlo.return %2 : tensor<complex<f32>>
    }) : (tensor<2x6x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x6x6xcomplex<f32>>
    return %1 : tensor<2x6x6xcomplex<f32>>
  }
  func.func private @angle(%arg0: tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32> {
    %0 = stablehlo.real %arg0 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %1 = stablehlo.imag %arg0 : (tensor<2x6x6xcomplex<f32>>) -> tensor<2x6x6xf32>
    %2 = stablehlo.atan2 %1, %0 : tensor<2x6x6xf32>
    return %2 : tensor<2x6x6xf32>
  }
}
