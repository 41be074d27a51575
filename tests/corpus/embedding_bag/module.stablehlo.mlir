module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<50x8xf32>, %arg1: tensor<40xi32>, %arg2: tensor<40xi32>) -> (tensor<6x8xf32> {jax.result_info = "result"}) {
    %0 = call @_take(%arg0, %arg1) : (tensor<50x8xf32>, tensor<40xi32>) -> tensor<40x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x8xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<40xi32>) -> tensor<40x1xi32>
    %3 = "stablehlo.scatter"(%1, %2, %0) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %13 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<6x8xf32>, tensor<40x1xi32>, tensor<40x8xf32>) -> tensor<6x8xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<40xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<40xi32>) -> tensor<40x1xi32>
    %7 = "stablehlo.scatter"(%5, %6, %4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %13 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %13 : tensor<f32>
    }) : (tensor<6xf32>, tensor<40x1xi32>, tensor<40xf32>) -> tensor<6xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %9 = stablehlo.maximum %7, %8 : tensor<6xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %12 = stablehlo.divide %3, %11 : tensor<6x8xf32>
    return %12 : tensor<6x8xf32>
  }
  func.func private @_take(%arg0: tensor<50x8xf32>, %arg1: tensor<40xi32>) -> tensor<40x8xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<40xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<40xi32>, tensor<40xi32>) -> tensor<40xi1>
    %c_0 = stablehlo.constant dense<50> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<40xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<40xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<40xi1>, tensor<40xi32>, tensor<40xi32>) -> tensor<40xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<40xi32>) -> tensor<40x1xi32>
    %c_1 = stablehlo.constant dense<49> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<40x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<40x1xi32>, tensor<40x1xi32>) -> tensor<40x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<40x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<40x1xi32>, tensor<40x1xi32>) -> tensor<40x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<40x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<40x1xi1>, tensor<i1>) -> tensor<40xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 8>}> : (tensor<50x8xf32>, tensor<40x1xi32>) -> tensor<40x8xf32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<40xi1>) -> tensor<40x8xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<40x8xf32>
    %16 = stablehlo.select %14, %13, %15 : tensor<40x8xi1>, tensor<40x8xf32>
    return %16 : tensor<40x8xf32>
  }
  func.func private @_where(%arg0: tensor<40xi1>, %arg1: tensor<40xi32>, %arg2: tensor<40xi32>) -> tensor<40xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<40xi1>, tensor<40xi32>
    return %0 : tensor<40xi32>
  }
}
