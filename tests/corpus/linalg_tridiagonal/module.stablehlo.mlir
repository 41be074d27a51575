module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x7xf32>, %arg1: tensor<3x7xf32>, %arg2: tensor<3x7xf32>, %arg3: tensor<3x7x2xf32>) -> (tensor<3x7x2xf32> {jax.result_info = "result[0]"}, tensor<3x7x2xf32> {jax.result_info = "result[1]"}, tensor<3x7x2xcomplex<f32>> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<[(0.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00)]> : tensor<7xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<[(1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (1.000000e+00,0.000000e+00), (0.000000e+00,0.000000e+00)]> : tensor<7xcomplex<f32>>
    %0:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%arg0, %arg1, %arg2, %arg3) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 2, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [3], operand_index = 3, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [i, l], [i, m, n])->([i, o], [i, p], [i, q], [i, r, s], [i]) {i=3, j=7, k=7, l=7, m=7, n=2, o=7, p=7, q=7, r=7, s=2}, custom>} : (tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7x2xf32>) -> (tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7xf32>, tensor<3x7x2xf32>, tensor<3xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<3xi1>) -> tensor<3x1x1xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x7x2xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<3x1x1xi1>) -> tensor<3x7x2xi1>
    %6 = stablehlo.select %5, %0#3, %4 : tensor<3x7x2xi1>, tensor<3x7x2xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x7x7xf32>
    %8 = stablehlo.iota dim = 0 : tensor<7xi32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %10 = stablehlo.compare LT, %8, %9, SIGNED : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi1>
    %c_4 = stablehlo.constant dense<7> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %12 = stablehlo.add %8, %11 : tensor<7xi32>
    %13 = stablehlo.select %10, %12, %8 : tensor<7xi1>, tensor<7xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %15 = stablehlo.compare LT, %8, %14, SIGNED : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi1>
    %c_6 = stablehlo.constant dense<7> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %17 = stablehlo.add %8, %16 : tensor<7xi32>
    %18 = stablehlo.select %15, %17, %8 : tensor<7xi1>, tensor<7xi32>
    %19 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %20 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %21 = stablehlo.concatenate %19, %20, dim = 1 : (tensor<7x1xi32>, tensor<7x1xi32>) -> tensor<7x2xi32>
    %22 = "stablehlo.scatter"(%7, %21, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<3x7x7xf32>, tensor<7x2xi32>, tensor<3x7xf32>) -> tensor<3x7x7xf32>
    %23 = stablehlo.slice %8 [1:7] : (tensor<7xi32>) -> tensor<6xi32>
    %24 = stablehlo.slice %8 [0:6] : (tensor<7xi32>) -> tensor<6xi32>
    %25 = stablehlo.slice %arg0 [0:3, 1:7] : (tensor<3x7xf32>) -> tensor<3x6xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %27 = stablehlo.compare LT, %23, %26, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_8 = stablehlo.constant dense<7> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %29 = stablehlo.add %23, %28 : tensor<6xi32>
    %30 = stablehlo.select %27, %29, %23 : tensor<6xi1>, tensor<6xi32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %31 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %32 = stablehlo.compare LT, %24, %31, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_10 = stablehlo.constant dense<7> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %34 = stablehlo.add %24, %33 : tensor<6xi32>
    %35 = stablehlo.select %32, %34, %24 : tensor<6xi1>, tensor<6xi32>
    %36 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %37 = stablehlo.broadcast_in_dim %35, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %38 = stablehlo.concatenate %36, %37, dim = 1 : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x2xi32>
    %39 = "stablehlo.scatter"(%22, %38, %25) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<3x7x7xf32>, tensor<6x2xi32>, tensor<3x6xf32>) -> tensor<3x7x7xf32>
    %40 = stablehlo.slice %8 [0:6] : (tensor<7xi32>) -> tensor<6xi32>
    %41 = stablehlo.slice %8 [1:7] : (tensor<7xi32>) -> tensor<6xi32>
    %42 = stablehlo.slice %arg2 [0:3, 0:6] : (tensor<3x7xf32>) -> tensor<3x6xf32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %43 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %44 = stablehlo.compare LT, %40, %43, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_12 = stablehlo.constant dense<7> : tensor<i32>
    %45 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %46 = stablehlo.add %40, %45 : tensor<6xi32>
    %47 = stablehlo.select %44, %46, %40 : tensor<6xi1>, tensor<6xi32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %48 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %49 = stablehlo.compare LT, %41, %48, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_14 = stablehlo.constant dense<7> : tensor<i32>
    %50 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %51 = stablehlo.add %41, %50 : tensor<6xi32>
    %52 = stablehlo.select %49, %51, %41 : tensor<6xi1>, tensor<6xi32>
    %53 = stablehlo.broadcast_in_dim %47, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %54 = stablehlo.broadcast_in_dim %52, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %55 = stablehlo.concatenate %53, %54, dim = 1 : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x2xi32>
    %56 = "stablehlo.scatter"(%39, %55, %42) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1, 2], scatter_dims_to_operand_dims = [1, 2], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<3x7x7xf32>, tensor<6x2xi32>, tensor<3x6xf32>) -> tensor<3x7x7xf32>
    %57 = stablehlo.reverse %arg0, dims = [1] : tensor<3x7xf32>
    %58 = stablehlo.complex %arg0, %57 : tensor<3x7xcomplex<f32>>
    %59 = stablehlo.broadcast_in_dim %cst, dims = [1] : (tensor<7xcomplex<f32>>) -> tensor<1x7xcomplex<f32>>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x7xcomplex<f32>>) -> tensor<3x7xcomplex<f32>>
    %61 = stablehlo.multiply %58, %60 : tensor<3x7xcomplex<f32>>
    %62 = stablehlo.reverse %arg1, dims = [1] : tensor<3x7xf32>
    %63 = stablehlo.complex %arg1, %62 : tensor<3x7xcomplex<f32>>
    %64 = stablehlo.reverse %arg2, dims = [1] : tensor<3x7xf32>
    %65 = stablehlo.complex %arg2, %64 : tensor<3x7xcomplex<f32>>
    %66 = stablehlo.broadcast_in_dim %cst_0, dims = [1] : (tensor<7xcomplex<f32>>) -> tensor<1x7xcomplex<f32>>
    %67 = stablehlo.broadcast_in_dim %66, dims = [0, 1] : (tensor<1x7xcomplex<f32>>) -> tensor<3x7xcomplex<f32>>
    %68 = stablehlo.multiply %65, %67 : tensor<3x7xcomplex<f32>>
    %69 = stablehlo.reverse %arg3, dims = [2] : tensor<3x7x2xf32>
    %70 = stablehlo.complex %arg3, %69 : tensor<3x7x2xcomplex<f32>>
    %71:5 = stablehlo.custom_call @lapack_cgtsv_ffi(%61, %63, %68, %70) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 2, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [3], operand_index = 3, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [i, l], [i, m, n])->([i, o], [i, p], [i, q], [i, r, s], [i]) {i=3, j=7, k=7, l=7, m=7, n=2, o=7, p=7, q=7, r=7, s=2}, custom>} : (tensor<3x7xcomplex<f32>>, tensor<3x7xcomplex<f32>>, tensor<3x7xcomplex<f32>>, tensor<3x7x2xcomplex<f32>>) -> (tensor<3x7xcomplex<f32>>, tensor<3x7xcomplex<f32>>, tensor<3x7xcomplex<f32>>, tensor<3x7x2xcomplex<f32>>, tensor<3xi32>)
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %72 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %73 = stablehlo.compare EQ, %71#4, %72, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0] : (tensor<3xi1>) -> tensor<3x1x1xi1>
    %cst_16 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %75 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<complex<f32>>) -> tensor<3x7x2xcomplex<f32>>
    %76 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<3x1x1xi1>) -> tensor<3x7x2xi1>
    %77 = stablehlo.select %76, %71#3, %75 : tensor<3x7x2xi1>, tensor<3x7x2xcomplex<f32>>
    %78 = stablehlo.dot_general %56, %6, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x7x7xf32>, tensor<3x7x2xf32>) -> tensor<3x7x2xf32>
    %79 = stablehlo.subtract %78, %arg3 : tensor<3x7x2xf32>
    return %6, %79, %77 : tensor<3x7x2xf32>, tensor<3x7x2xf32>, tensor<3x7x2xcomplex<f32>>
  }
}
