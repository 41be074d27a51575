module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf32>) -> (tensor<2x5x5xf32> {jax.result_info = "result[0]"}, tensor<2x5x5xf32> {jax.result_info = "result[1]"}, tensor<2x5xf32> {jax.result_info = "result[2]"}, tensor<2x5xf32> {jax.result_info = "result[3]"}, tensor<2x5xf32> {jax.result_info = "result[4]"}, tensor<2x5xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<2xcomplex<f32>> {jax.result_info = "result[6]"}) {
    %0:5 = stablehlo.custom_call @lapack_sgeev_ffi(%arg0) {backend_config = "", mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l], [i, m], [i, n, o], [i, p, q], [i]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5, p=5, q=5}, custom>} : (tensor<2x5x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xi32>)
    %1 = stablehlo.complex %0#0, %0#1 : tensor<2x5xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %3 = stablehlo.compare EQ, %0#4, %2, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5xcomplex<f32>>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x5xi1>
    %7 = stablehlo.select %6, %1, %5 : tensor<2x5xi1>, tensor<2x5xcomplex<f32>>
    %8 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %11 = stablehlo.select %10, %0#3, %9 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %12:5 = stablehlo.custom_call @lapack_sgeev_ffi(%arg0) {backend_config = "", mhlo.backend_config = {compute_left = 86 : ui8, compute_right = 86 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l], [i, m], [i, n, o], [i, p, q], [i]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5, p=5, q=5}, custom>} : (tensor<2x5x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xi32>)
    %13 = stablehlo.complex %12#0, %12#1 : tensor<2x5xcomplex<f32>>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %15 = stablehlo.compare EQ, %12#4, %14, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst_2 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<2x5xcomplex<f32>>
    %18 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x5xi1>
    %19 = stablehlo.select %18, %13, %17 : tensor<2x5xi1>, tensor<2x5xcomplex<f32>>
    %20 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_3 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %21 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %22 = stablehlo.broadcast_in_dim %20, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %23 = stablehlo.select %22, %12#2, %21 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %24 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_4 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %25 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %26 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %27 = stablehlo.select %26, %12#3, %25 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %28 = stablehlo.convert %arg0 : (tensor<2x5x5xf32>) -> tensor<2x5x5xcomplex<f32>>
    %29 = stablehlo.dot_general %28, %11, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %30 = stablehlo.broadcast_in_dim %7, dims = [0, 2] : (tensor<2x5xcomplex<f32>>) -> tensor<2x1x5xcomplex<f32>>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<2x1x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %32 = stablehlo.multiply %11, %31 : tensor<2x5x5xcomplex<f32>>
    %33 = stablehlo.subtract %29, %32 : tensor<2x5x5xcomplex<f32>>
    %34 = stablehlo.real %23 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %35 = stablehlo.imag %23 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %36 = stablehlo.negate %35 : tensor<2x5x5xf32>
    %37 = stablehlo.complex %34, %36 : tensor<2x5x5xcomplex<f32>>
    %38 = stablehlo.transpose %37, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %39 = stablehlo.convert %arg0 : (tensor<2x5x5xf32>) -> tensor<2x5x5xcomplex<f32>>
    %40 = stablehlo.dot_general %38, %39, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %41 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<2x5xcomplex<f32>>) -> tensor<2x5x1xcomplex<f32>>
    %42 = stablehlo.real %23 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %43 = stablehlo.imag %23 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %44 = stablehlo.negate %43 : tensor<2x5x5xf32>
    %45 = stablehlo.complex %42, %44 : tensor<2x5x5xcomplex<f32>>
    %46 = stablehlo.transpose %45, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %47 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2] : (tensor<2x5x1xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %48 = stablehlo.multiply %47, %46 : tensor<2x5x5xcomplex<f32>>
    %49 = stablehlo.subtract %40, %48 : tensor<2x5x5xcomplex<f32>>
    %50 = stablehlo.abs %7 : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xf32>
    %51 = call @argsort(%50) : (tensor<2x5xf32>) -> tensor<2x5xi32>
    %52 = stablehlo.abs %33 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %53 = stablehlo.abs %49 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %54 = call @norm(%11) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xf32>
    %55 = call @norm(%27) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xf32>
    %56 = stablehlo.abs %7 : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xf32>
    %57 = call @take_along_axis(%56, %51) : (tensor<2x5xf32>, tensor<2x5xi32>) -> tensor<2x5xf32>
    %58 = call @eigvals(%arg0) : (tensor<2x5x5xf32>) -> tensor<2x5xcomplex<f32>>
    %59 = call @sort(%58) : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    %cst_5 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %60 = stablehlo.reduce(%7 init: %cst_5) applies stablehlo.add across dimensions = [1] : (tensor<2x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2xcomplex<f32>>
    %61 = call @trace(%arg0) : (tensor<2x5x5xf32>) -> tensor<2xf32>
    %62 = stablehlo.convert %61 : (tensor<2xf32>) -> tensor<2xcomplex<f32>>
    %63 = stablehlo.subtract %60, %62 : tensor<2xcomplex<f32>>
    return %52, %53, %54, %55, %57, %59, %63 : tensor<2x5x5xf32>, tensor<2x5x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xcomplex<f32>>, tensor<2xcomplex<f32>>
  }
  func.func private @argsort(%arg0: tensor<2x5xf32>) -> tensor<2x5xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<2x5xi32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<2x5xf32>, tensor<2x5xi32>) -> (tensor<2x5xf32>, tensor<2x5xi32>)
    return %1#1 : tensor<2x5xi32>
  }
  func.func private @norm(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xf32> {
    %0 = stablehlo.real %arg0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %1 = stablehlo.imag %arg0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %2 = stablehlo.negate %1 : tensor<2x5x5xf32>
    %3 = stablehlo.complex %0, %2 : tensor<2x5x5xcomplex<f32>>
    %4 = stablehlo.multiply %arg0, %3 : tensor<2x5x5xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %7 = stablehlo.sqrt %6 : tensor<2x5xf32>
    return %7 : tensor<2x5xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<2x5xf32>, %arg1: tensor<2x5xi32>) -> tensor<2x5xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<2x5xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<2x5xi1>, tensor<2x5xi32>
    %5 = stablehlo.reshape %4 : (tensor<2x5xi32>) -> tensor<2x5x1xi32>
    %c_1 = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x5x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<2x5x1xi32>, tensor<2x5x1xi32>) -> tensor<2x5x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<2x5x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<2x5x1xi32>, tensor<2x5x1xi32>) -> tensor<2x5x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<2x5x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<2x5x1xi1>, tensor<i1>) -> tensor<2x5xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<2x5xf32>, tensor<2x5x1xi32>) -> tensor<2x5xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<2x5xi1>, tensor<2x5xf32>
    return %15 : tensor<2x5xf32>
  }
  func.func private @eigvals(%arg0: tensor<2x5x5xf32>) -> tensor<2x5xcomplex<f32>> {
    %0:5 = stablehlo.custom_call @lapack_sgeev_ffi(%arg0) {backend_config = "", mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l], [i, m], [i, n, o], [i, p, q], [i]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5, p=5, q=5}, custom>} : (tensor<2x5x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xi32>)
    %1 = stablehlo.complex %0#0, %0#1 : tensor<2x5xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %3 = stablehlo.compare EQ, %0#4, %2, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5xcomplex<f32>>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x5xi1>
    %7 = stablehlo.select %6, %1, %5 : tensor<2x5xi1>, tensor<2x5xcomplex<f32>>
    return %7 : tensor<2x5xcomplex<f32>>
  }
  func.func private @sort(%arg0: tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<complex<f32>>, %arg2: tensor<complex<f32>>):
      %1 = stablehlo.real %arg1 : (tensor<complex<f32>>) -> tensor<f32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %6 = stablehlo.imag %arg1 : (tensor<complex<f32>>) -> tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.compare EQ, %6, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.select %7, %cst_3, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare NE, %6, %6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %10 = stablehlo.select %9, %cst_4, %8 : tensor<i1>, tensor<f32>
      %11 = stablehlo.real %arg2 : (tensor<complex<f32>>) -> tensor<f32>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.compare EQ, %11, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %13 = stablehlo.select %12, %cst_6, %11 : tensor<i1>, tensor<f32>
      %14 = stablehlo.compare NE, %11, %11, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_7 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %15 = stablehlo.select %14, %cst_7, %13 : tensor<i1>, tensor<f32>
      %16 = stablehlo.imag %arg2 : (tensor<complex<f32>>) -> tensor<f32>
      %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %17 = stablehlo.compare EQ, %16, %cst_8, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %18 = stablehlo.select %17, %cst_9, %16 : tensor<i1>, tensor<f32>
      %19 = stablehlo.compare NE, %16, %16, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_10 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %20 = stablehlo.select %19, %cst_10, %18 : tensor<i1>, tensor<f32>
      %21 = stablehlo.compare LT, %10, %20, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %22 = stablehlo.compare LT, %5, %15, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %23 = stablehlo.compare EQ, %5, %15, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %24 = stablehlo.and %23, %21 : tensor<i1>
      %25 = stablehlo.or %22, %24 : tensor<i1>
      stablehlo.return %25 : tensor<i1>
    }) : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    return %0 : tensor<2x5xcomplex<f32>>
  }
  func.func private @trace(%arg0: tensor<2x5x5xf32>) -> tensor<2xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %1 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %3 = stablehlo.add %0, %2 : tensor<5x5xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %6 = call @_where(%4, %arg0, %5) : (tensor<5x5xi1>, tensor<2x5x5xf32>, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [1, 2] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2xf32>
    return %7 : tensor<2xf32>
  }
  func.func private @_where(%arg0: tensor<5x5xi1>, %arg1: tensor<2x5x5xf32>, %arg2: tensor<2x5x5xf32>) -> tensor<2x5x5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %1 = stablehlo.select %0, %arg1, %arg2 : tensor<2x5x5xi1>, tensor<2x5x5xf32>
    return %1 : tensor<2x5x5xf32>
  }
}
