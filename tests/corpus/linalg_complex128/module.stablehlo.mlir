module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x6xf64>, %arg1: tensor<6x6xf64>, %arg2: tensor<6x2xf64>) -> (tensor<6x2xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<6x2xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[5]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[6]"}, tensor<6xf64> {jax.result_info = "result[7]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[8]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[9]"}, tensor<6x6xcomplex<f64>> {jax.result_info = "result[10]"}, tensor<6x2xf64> {jax.result_info = "result[11]"}) {
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %1 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %3 = stablehlo.add %0, %2 : tensor<6x6xi64>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %5 = stablehlo.convert %4 : (tensor<6x6xi1>) -> tensor<6x6xcomplex<f64>>
    %6 = stablehlo.complex %arg0, %arg1 : tensor<6x6xcomplex<f64>>
    %cst = stablehlo.constant dense<(6.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %8 = stablehlo.multiply %7, %5 : tensor<6x6xcomplex<f64>>
    %9 = stablehlo.add %6, %8 : tensor<6x6xcomplex<f64>>
    %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %11 = stablehlo.real %10 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %12 = stablehlo.imag %10 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %13 = stablehlo.negate %12 : tensor<6x6xf64>
    %14 = stablehlo.complex %11, %13 : tensor<6x6xcomplex<f64>>
    %15 = stablehlo.dot_general %9, %14, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %cst_0 = stablehlo.constant dense<(6.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %16 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %17 = stablehlo.multiply %16, %5 : tensor<6x6xcomplex<f64>>
    %18 = stablehlo.add %15, %17 : tensor<6x6xcomplex<f64>>
    %19 = stablehlo.convert %arg2 : (tensor<6x2xf64>) -> tensor<6x2xcomplex<f64>>
    %20 = call @solve(%9, %19) : (tensor<6x6xcomplex<f64>>, tensor<6x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    %21 = call @cholesky(%18) : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %22:2 = call @qr(%9) : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>)
    %23:2 = call @eigh(%18) : (tensor<6x6xcomplex<f64>>) -> (tensor<6xf64>, tensor<6x6xcomplex<f64>>)
    %24:2 = call @_schur(%9) : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>)
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %25 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<1xf64>
    %26 = stablehlo.slice %arg0 [0:1, 1:6] : (tensor<6x6xf64>) -> tensor<1x5xf64>
    %27 = stablehlo.reshape %26 : (tensor<1x5xf64>) -> tensor<5xf64>
    %28 = stablehlo.concatenate %25, %27, dim = 0 : (tensor<1xf64>, tensor<5xf64>) -> tensor<6xf64>
    %29 = stablehlo.slice %arg0 [1:2, 0:5] : (tensor<6x6xf64>) -> tensor<1x5xf64>
    %30 = stablehlo.reshape %29 : (tensor<1x5xf64>) -> tensor<5xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %31 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<1xf64>
    %32 = stablehlo.concatenate %30, %31, dim = 0 : (tensor<5xf64>, tensor<1xf64>) -> tensor<6xf64>
    %33 = stablehlo.slice %arg0 [2:3, 0:6] : (tensor<6x6xf64>) -> tensor<1x6xf64>
    %34 = stablehlo.reshape %33 : (tensor<1x6xf64>) -> tensor<6xf64>
    %cst_3 = stablehlo.constant dense<1.000000e-01> : tensor<f64>
    %35 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %36 = stablehlo.multiply %35, %34 : tensor<6xf64>
    %37:5 = stablehlo.custom_call @lapack_dgtsv_ffi(%28, %36, %32, %arg2) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 2, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [3], operand_index = 3, operand_tuple_indices = []>], result_layouts = [dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i], [j], [k], [l, m])->([n], [o], [p], [q, r], []) {i=6, j=6, k=6, l=6, m=2, n=6, o=6, p=6, q=6, r=2}, custom>} : (tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6x2xf64>) -> (tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6x2xf64>, tensor<i32>)
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<i32>
    %39 = stablehlo.compare EQ, %37#4, %38, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %40 = stablehlo.broadcast_in_dim %39, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_5 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %41 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<6x2xf64>
    %42 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x2xi1>
    %43 = stablehlo.select %42, %37#3, %41 : tensor<6x2xi1>, tensor<6x2xf64>
    %44 = stablehlo.dot_general %9, %20, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    %45 = stablehlo.convert %arg2 : (tensor<6x2xf64>) -> tensor<6x2xcomplex<f64>>
    %46 = stablehlo.subtract %44, %45 : tensor<6x2xcomplex<f64>>
    %47 = stablehlo.transpose %21, dims = [1, 0] : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %48 = stablehlo.real %47 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %49 = stablehlo.imag %47 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %50 = stablehlo.negate %49 : tensor<6x6xf64>
    %51 = stablehlo.complex %48, %50 : tensor<6x6xcomplex<f64>>
    %52 = stablehlo.dot_general %21, %51, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %53 = stablehlo.subtract %52, %18 : tensor<6x6xcomplex<f64>>
    %54 = stablehlo.dot_general %22#0, %22#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %55 = stablehlo.subtract %54, %9 : tensor<6x6xcomplex<f64>>
    %56 = stablehlo.convert %23#0 : (tensor<6xf64>) -> tensor<6xcomplex<f64>>
    %57 = stablehlo.broadcast_in_dim %56, dims = [1] : (tensor<6xcomplex<f64>>) -> tensor<1x6xcomplex<f64>>
    %58 = stablehlo.broadcast_in_dim %57, dims = [0, 1] : (tensor<1x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %59 = stablehlo.multiply %23#1, %58 : tensor<6x6xcomplex<f64>>
    %60 = stablehlo.transpose %23#1, dims = [1, 0] : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %61 = stablehlo.real %60 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %62 = stablehlo.imag %60 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %63 = stablehlo.negate %62 : tensor<6x6xf64>
    %64 = stablehlo.complex %61, %63 : tensor<6x6xcomplex<f64>>
    %65 = stablehlo.dot_general %59, %64, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %66 = stablehlo.subtract %65, %18 : tensor<6x6xcomplex<f64>>
    %67 = stablehlo.dot_general %24#1, %24#0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %68 = stablehlo.transpose %24#1, dims = [1, 0] : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %69 = stablehlo.real %68 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %70 = stablehlo.imag %68 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %71 = stablehlo.negate %70 : tensor<6x6xf64>
    %72 = stablehlo.complex %69, %71 : tensor<6x6xcomplex<f64>>
    %73 = stablehlo.dot_general %67, %72, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %74 = stablehlo.subtract %73, %9 : tensor<6x6xcomplex<f64>>
    %75 = call @tril(%24#0) : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    return %20, %46, %21, %53, %22#0, %22#1, %55, %23#0, %66, %74, %75, %43 : tensor<6x2xcomplex<f64>>, tensor<6x2xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6xf64>, tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6x2xf64>
  }
  func.func private @solve(%arg0: tensor<6x6xcomplex<f64>>, %arg1: tensor<6x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>> {
    %0:3 = stablehlo.custom_call @lapack_zgetrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=6, j=6, k=6, l=6, m=6}, custom>} : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6xi32>, tensor<i32>)
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %2 = stablehlo.subtract %0#1, %1 : tensor<6xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<i32>
    %4 = stablehlo.compare GE, %0#2, %3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %8 = stablehlo.select %7, %0#0, %6 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    %9 = stablehlo.iota dim = 0 : tensor<6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %10:4 = stablehlo.while(%iterArg = %2, %iterArg_3 = %c_2, %iterArg_4 = %c_1, %iterArg_5 = %9) : tensor<6xi32>, tensor<i64>, tensor<i64>, tensor<6xi32>
    cond {
      %c_6 = stablehlo.constant dense<6> : tensor<i64>
      %14 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %14 : tensor<i1>
    } do {
      %14:2 = func.call @closed_call(%iterArg, %iterArg_4, %iterArg_5) : (tensor<6xi32>, tensor<i64>, tensor<6xi32>) -> (tensor<i64>, tensor<6xi32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %15 = stablehlo.add %iterArg_3, %c_6 : tensor<i64>
      stablehlo.return %iterArg, %15, %14#0, %14#1 : tensor<6xi32>, tensor<i64>, tensor<i64>, tensor<6xi32>
    }
    %11 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<6x2xcomplex<f64>>) -> tensor<2x6xcomplex<f64>>
    %12 = call @_lu_solve(%8, %10#3, %11) : (tensor<6x6xcomplex<f64>>, tensor<6xi32>, tensor<2x6xcomplex<f64>>) -> tensor<2x6xcomplex<f64>>
    %13 = stablehlo.transpose %12, dims = [1, 0] : (tensor<2x6xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    return %13 : tensor<6x2xcomplex<f64>>
  }
  func.func private @closed_call(%arg0: tensor<6xi32>, %arg1: tensor<i64>, %arg2: tensor<6xi32>) -> (tensor<i64>, tensor<6xi32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg1, %c : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.compare LT, %arg1, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %2 = stablehlo.convert %arg1 : tensor<i64>
    %c_1 = stablehlo.constant dense<6> : tensor<i64>
    %3 = stablehlo.add %2, %c_1 : tensor<i64>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<i1>, tensor<i64>
    %5 = stablehlo.dynamic_slice %arg0, %4, sizes = [1] : (tensor<6xi32>, tensor<i64>) -> tensor<1xi32>
    %6 = stablehlo.reshape %5 : (tensor<1xi32>) -> tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.compare LT, %arg1, %c_2, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %8 = stablehlo.convert %arg1 : tensor<i64>
    %c_3 = stablehlo.constant dense<6> : tensor<i64>
    %9 = stablehlo.add %8, %c_3 : tensor<i64>
    %10 = stablehlo.select %7, %9, %arg1 : tensor<i1>, tensor<i64>
    %11 = stablehlo.dynamic_slice %arg2, %10, sizes = [1] : (tensor<6xi32>, tensor<i64>) -> tensor<1xi32>
    %12 = stablehlo.reshape %11 : (tensor<1xi32>) -> tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.compare LT, %6, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_5 = stablehlo.constant dense<6> : tensor<i32>
    %14 = stablehlo.add %6, %c_5 : tensor<i32>
    %15 = stablehlo.select %13, %14, %6 : tensor<i1>, tensor<i32>
    %16 = stablehlo.dynamic_slice %arg2, %15, sizes = [1] : (tensor<6xi32>, tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.reshape %16 : (tensor<1xi32>) -> tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %18 = stablehlo.compare LT, %arg1, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<6> : tensor<i64>
    %19 = stablehlo.add %arg1, %c_7 : tensor<i64>
    %20 = stablehlo.select %18, %19, %arg1 : tensor<i1>, tensor<i64>
    %21 = stablehlo.convert %20 : (tensor<i64>) -> tensor<i32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %23 = "stablehlo.scatter"(%arg2, %22, %17) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<6xi32>, tensor<1xi32>, tensor<i32>) -> tensor<6xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %24 = stablehlo.compare LT, %6, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_9 = stablehlo.constant dense<6> : tensor<i32>
    %25 = stablehlo.add %6, %c_9 : tensor<i32>
    %26 = stablehlo.select %24, %25, %6 : tensor<i1>, tensor<i32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %28 = "stablehlo.scatter"(%23, %27, %12) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<6xi32>, tensor<1xi32>, tensor<i32>) -> tensor<6xi32>
    return %0, %28 : tensor<i64>, tensor<6xi32>
  }
  func.func private @_lu_solve(%arg0: tensor<6x6xcomplex<f64>>, %arg1: tensor<6xi32>, %arg2: tensor<2x6xcomplex<f64>>) -> tensor<2x6xcomplex<f64>> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<2x6xcomplex<f64>>) -> tensor<2x6x1xcomplex<f64>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<6xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<6xi1>, tensor<6xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %7 = "stablehlo.gather"(%0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1, 1>}> : (tensor<2x6x1xcomplex<f64>>, tensor<6x1xi32>) -> tensor<2x6x1xcomplex<f64>>
    %8 = stablehlo.transpose %7, dims = [1, 2, 0] : (tensor<2x6x1xcomplex<f64>>) -> tensor<6x1x2xcomplex<f64>>
    %9 = stablehlo.reshape %8 : (tensor<6x1x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    %10 = stablehlo.custom_call @lapack_ztrsm_ffi(%arg0, %9) {backend_config = "", mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k, l])->([m, n]) {i=6, j=6, k=6, l=2, m=6, n=2}, custom>} : (tensor<6x6xcomplex<f64>>, tensor<6x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    %11 = stablehlo.reshape %10 : (tensor<6x2xcomplex<f64>>) -> tensor<6x1x2xcomplex<f64>>
    %12 = stablehlo.reshape %11 : (tensor<6x1x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    %13 = stablehlo.custom_call @lapack_ztrsm_ffi(%arg0, %12) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k, l])->([m, n]) {i=6, j=6, k=6, l=2, m=6, n=2}, custom>} : (tensor<6x6xcomplex<f64>>, tensor<6x2xcomplex<f64>>) -> tensor<6x2xcomplex<f64>>
    %14 = stablehlo.reshape %13 : (tensor<6x2xcomplex<f64>>) -> tensor<6x1x2xcomplex<f64>>
    %15 = stablehlo.transpose %14, dims = [2, 0, 1] : (tensor<6x1x2xcomplex<f64>>) -> tensor<2x6x1xcomplex<f64>>
    %16 = stablehlo.reshape %15 : (tensor<2x6x1xcomplex<f64>>) -> tensor<2x6xcomplex<f64>>
    return %16 : tensor<2x6xcomplex<f64>>
  }
  func.func private @cholesky(%arg0: tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %1 = stablehlo.real %0 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %2 = stablehlo.imag %0 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %3 = stablehlo.negate %2 : tensor<6x6xf64>
    %4 = stablehlo.complex %1, %3 : tensor<6x6xcomplex<f64>>
    %5 = stablehlo.add %arg0, %4 : tensor<6x6xcomplex<f64>>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %7 = stablehlo.divide %5, %6 : tensor<6x6xcomplex<f64>>
    %8:2 = stablehlo.custom_call @lapack_zpotrf_ffi(%7) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=6, j=6, k=6, l=6}, custom>} : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %10 = stablehlo.compare EQ, %8#1, %9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %14 = stablehlo.select %13, %8#0, %12 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    %15 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %16 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %17 = stablehlo.add %15, %16 : tensor<6x6xi64>
    %18 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %19 = stablehlo.compare GE, %17, %18, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %cst_2 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %21 = stablehlo.select %19, %14, %20 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    return %21 : tensor<6x6xcomplex<f64>>
  }
  func.func private @qr(%arg0: tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) {
    %0:2 = stablehlo.custom_call @lapack_zgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=6, j=6, k=6, l=6, m=6}, custom>} : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6xcomplex<f64>>)
    %1 = stablehlo.custom_call @lapack_zungqr_ffi(%0#0, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k])->([l, m]) {i=6, j=6, k=6, l=6, m=6}, custom>} : (tensor<6x6xcomplex<f64>>, tensor<6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %2 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %c = stablehlo.constant dense<-1> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %4 = stablehlo.add %2, %3 : tensor<6x6xi64>
    %5 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %6 = stablehlo.compare GE, %4, %5, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %8 = stablehlo.select %6, %7, %0#0 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    return %1, %8 : tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>
  }
  func.func private @eigh(%arg0: tensor<6x6xcomplex<f64>>) -> (tensor<6xf64>, tensor<6x6xcomplex<f64>>) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>>
    %1 = stablehlo.real %0 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %2 = stablehlo.imag %0 : (tensor<6x6xcomplex<f64>>) -> tensor<6x6xf64>
    %3 = stablehlo.negate %2 : tensor<6x6xf64>
    %4 = stablehlo.complex %1, %3 : tensor<6x6xcomplex<f64>>
    %5 = stablehlo.add %arg0, %4 : tensor<6x6xcomplex<f64>>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %7 = stablehlo.divide %5, %6 : tensor<6x6xcomplex<f64>>
    %8:3 = stablehlo.custom_call @lapack_zheevd_ffi(%7) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=6, j=6, k=6, l=6, m=6}, custom>} : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6xf64>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %10 = stablehlo.compare EQ, %8#2, %9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %11 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %14 = stablehlo.select %13, %8#0, %12 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    %15 = stablehlo.broadcast_in_dim %10, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %17 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<1xi1>) -> tensor<6xi1>
    %18 = stablehlo.select %17, %8#1, %16 : tensor<6xi1>, tensor<6xf64>
    return %18, %14 : tensor<6xf64>, tensor<6x6xcomplex<f64>>
  }
  func.func private @_schur(%arg0: tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>) {
    %0:5 = stablehlo.custom_call @lapack_zgees_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m, n], [o], [], []) {i=6, j=6, k=6, l=6, m=6, n=6, o=6}, custom>} : (tensor<6x6xcomplex<f64>>) -> (tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>, tensor<6xcomplex<f64>>, tensor<i32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    %7 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    return %6, %10 : tensor<6x6xcomplex<f64>>, tensor<6x6xcomplex<f64>>
  }
  func.func private @tril(%arg0: tensor<6x6xcomplex<f64>>) -> tensor<6x6xcomplex<f64>> {
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %c = stablehlo.constant dense<-1> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %2 = stablehlo.add %0, %1 : tensor<6x6xi64>
    %3 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<6x6xcomplex<f64>>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<6x6xi1>, tensor<6x6xcomplex<f64>>
    return %6 : tensor<6x6xcomplex<f64>>
  }
}
