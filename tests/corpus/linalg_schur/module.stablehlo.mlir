module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x6x6xf32>) -> (tensor<3x6x6xf32> {jax.result_info = "result[0]"}, tensor<3x6x6xf32> {jax.result_info = "result[1]"}, tensor<3x6x6xf32> {jax.result_info = "result[2]"}, tensor<3x6xf32> {jax.result_info = "result[3]"}) {
    %0:2 = call @_schur(%arg0) : (tensor<3x6x6xf32>) -> (tensor<3x6x6xf32>, tensor<3x6x6xf32>)
    %1 = stablehlo.transpose %0#1, dims = [0, 2, 1] : (tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
    %2 = stablehlo.dot_general %0#1, %0#0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x6x6xf32>, tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
    %3 = stablehlo.dot_general %2, %1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x6x6xf32>, tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
    %4 = stablehlo.subtract %3, %arg0 : tensor<3x6x6xf32>
    %5 = stablehlo.dot_general %1, %0#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x6x6xf32>, tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
    %6 = stablehlo.iota dim = 0 : tensor<6x6xi32>
    %7 = stablehlo.iota dim = 1 : tensor<6x6xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x6xi32>
    %9 = stablehlo.add %6, %8 : tensor<6x6xi32>
    %10 = stablehlo.compare EQ, %9, %7, SIGNED : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
    %11 = stablehlo.convert %10 : (tensor<6x6xi1>) -> tensor<6x6xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [1, 2] : (tensor<6x6xf32>) -> tensor<1x6x6xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<1x6x6xf32>) -> tensor<3x6x6xf32>
    %14 = stablehlo.subtract %5, %13 : tensor<3x6x6xf32>
    %15 = call @tril(%0#0) : (tensor<3x6x6xf32>) -> tensor<3x6x6xf32>
    %16 = call @diagonal(%0#0) : (tensor<3x6x6xf32>) -> tensor<3x6xf32>
    %17 = call @sort(%16) : (tensor<3x6xf32>) -> tensor<3x6xf32>
    return %4, %14, %15, %17 : tensor<3x6x6xf32>, tensor<3x6x6xf32>, tensor<3x6x6xf32>, tensor<3x6xf32>
  }
  func.func private @_schur(%arg0: tensor<3x6x6xf32>) -> (tensor<3x6x6xf32>, tensor<3x6x6xf32>) {
    %0:6 = stablehlo.custom_call @lapack_sgees_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n, o], [i, p], [i, q], [i], [i]) {i=3, j=6, k=6, l=6, m=6, n=6, o=6, p=6, q=6}, custom>} : (tensor<3x6x6xf32>) -> (tensor<3x6x6xf32>, tensor<3x6x6xf32>, tensor<3x6xf32>, tensor<3x6xf32>, tensor<3xi32>, tensor<3xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %2 = stablehlo.compare EQ, %0#5, %1, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<3xi1>) -> tensor<3x1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x6x6xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<3x1x1xi1>) -> tensor<3x6x6xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<3x6x6xi1>, tensor<3x6x6xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<3xi1>) -> tensor<3x1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x6x6xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<3x1x1xi1>) -> tensor<3x6x6xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<3x6x6xi1>, tensor<3x6x6xf32>
    return %6, %10 : tensor<3x6x6xf32>, tensor<3x6x6xf32>
  }
  func.func private @tril(%arg0: tensor<3x6x6xf32>) -> tensor<3x6x6xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi32>
    %c = stablehlo.constant dense<-2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x6xi32>
    %2 = stablehlo.add %0, %1 : tensor<6x6xi32>
    %3 = stablehlo.iota dim = 1 : tensor<6x6xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<6x6xi1>) -> tensor<3x6x6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x6x6xf32>
    %7 = stablehlo.select %5, %arg0, %6 : tensor<3x6x6xi1>, tensor<3x6x6xf32>
    return %7 : tensor<3x6x6xf32>
  }
  func.func private @diagonal(%arg0: tensor<3x6x6xf32>) -> tensor<3x6xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<6xi32>
    %1 = stablehlo.iota dim = 0 : tensor<6xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.compare LT, %0, %2, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %5 = stablehlo.add %0, %4 : tensor<6xi32>
    %6 = stablehlo.select %3, %5, %0 : tensor<6xi1>, tensor<6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %8 = stablehlo.compare LT, %1, %7, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_2 = stablehlo.constant dense<6> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %10 = stablehlo.add %1, %9 : tensor<6xi32>
    %11 = stablehlo.select %8, %10, %1 : tensor<6xi1>, tensor<6xi32>
    %12 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x2xi32>
    %15 = "stablehlo.gather"(%arg0, %14) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1, 2], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 3, 1, 1>}> : (tensor<3x6x6xf32>, tensor<6x2xi32>) -> tensor<3x6xf32>
    return %15 : tensor<3x6xf32>
  }
  func.func private @sort(%arg0: tensor<3x6xf32>) -> tensor<3x6xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<3x6xf32>) -> tensor<3x6xf32>
    return %0 : tensor<3x6xf32>
  }
}
