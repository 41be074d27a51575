module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x9xf32>, %arg1: tensor<4x9xi32>) -> (tensor<4x3xf32> {jax.result_info = "result[0]"}, tensor<4x3xi32> {jax.result_info = "result[1]"}, tensor<4x3xi32> {jax.result_info = "result[2]"}, tensor<4x3xi32> {jax.result_info = "result[3]"}, tensor<4x3xf32> {jax.result_info = "result[4]"}) {
    %values, %indices = chlo.top_k(%arg0, k = 3) : tensor<4x9xf32> -> (tensor<4x3xf32>, tensor<4x3xi32>)
    %values_0, %indices_1 = chlo.top_k(%arg1, k = 3) : tensor<4x9xi32> -> (tensor<4x3xi32>, tensor<4x3xi32>)
    %0 = call @argpartition(%arg0) : (tensor<4x9xf32>) -> tensor<4x9xi32>
    %1 = stablehlo.slice %0 [0:4, 0:3] : (tensor<4x9xi32>) -> tensor<4x3xi32>
    %2 = call @take_along_axis(%arg0, %1) : (tensor<4x9xf32>, tensor<4x3xi32>) -> tensor<4x3xf32>
    %3 = call @sort(%2) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %values, %indices, %values_0, %indices_1, %3 : tensor<4x3xf32>, tensor<4x3xi32>, tensor<4x3xi32>, tensor<4x3xi32>, tensor<4x3xf32>
  }
  func.func private @argpartition(%arg0: tensor<4x9xf32>) -> tensor<4x9xi32> {
    %0 = stablehlo.negate %arg0 : tensor<4x9xf32>
    %values, %indices = chlo.top_k(%0, k = 4) : tensor<4x9xf32> -> (tensor<4x4xf32>, tensor<4x4xi32>)
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %3 = stablehlo.compare LT, %indices, %2, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %c_0 = stablehlo.constant dense<9> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %5 = stablehlo.add %indices, %4 : tensor<4x4xi32>
    %6 = stablehlo.select %3, %5, %indices : tensor<4x4xi1>, tensor<4x4xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<4x4xi32>) -> tensor<4x4x1xi32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<4xf32>) -> tensor<4x4xf32>
    %10 = "stablehlo.scatter"(%1, %7, %9) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      stablehlo.return %arg2 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<4x4x1xi32>, tensor<4x4xf32>) -> tensor<4x9xf32>
    %values_2, %indices_3 = chlo.top_k(%10, k = 5) : tensor<4x9xf32> -> (tensor<4x5xf32>, tensor<4x5xi32>)
    %11 = stablehlo.concatenate %indices, %indices_3, dim = 1 : (tensor<4x4xi32>, tensor<4x5xi32>) -> tensor<4x9xi32>
    return %11 : tensor<4x9xi32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x9xf32>, %arg1: tensor<4x3xi32>) -> tensor<4x3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x3xi32>, tensor<4x3xi32>) -> tensor<4x3xi1>
    %c_0 = stablehlo.constant dense<9> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x3xi1>, tensor<4x3xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x3xi32>) -> tensor<4x3x1xi32>
    %c_1 = stablehlo.constant dense<8> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x3x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<4x3x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x3x1xi32>, tensor<4x3x1xi32>) -> tensor<4x3x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x3x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<4x3x1xi1>, tensor<i1>) -> tensor<4x3xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x9xf32>, tensor<4x3x1xi32>) -> tensor<4x3xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<4x3xi1>, tensor<4x3xf32>
    return %15 : tensor<4x3xf32>
  }
  func.func private @sort(%arg0: tensor<4x3xf32>) -> tensor<4x3xf32> {
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
    }) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    return %0 : tensor<4x3xf32>
  }
}
