module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x12xf32>) -> (tensor<12xi32> {jax.result_info = "result[0]"}, tensor<12xi32> {jax.result_info = "result[1]"}, tensor<10x12xf32> {jax.result_info = "result[2]"}, tensor<12xf32> {jax.result_info = "result[3]"}) {
    %0 = call @argmax(%arg0) : (tensor<10x12xf32>) -> tensor<12xi32>
    %1 = call @argmin(%arg0) : (tensor<10x12xf32>) -> tensor<12xi32>
    %2 = call @_one_hot(%0) : (tensor<12xi32>) -> tensor<10x12xf32>
    %3 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<12xi32>) -> tensor<1x12xi32>
    %4 = call @take_along_axis(%arg0, %3) : (tensor<10x12xf32>, tensor<1x12xi32>) -> tensor<1x12xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x12xf32>) -> tensor<12xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10x12xf32>
    %7 = stablehlo.compare GT, %2, %6, FLOAT : (tensor<10x12xf32>, tensor<10x12xf32>) -> tensor<10x12xi1>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = call @_where(%7, %cst_0, %arg0) : (tensor<10x12xi1>, tensor<f32>, tensor<10x12xf32>) -> tensor<10x12xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.maximum across dimensions = [0] : (tensor<10x12xf32>, tensor<f32>) -> tensor<12xf32>
    %10 = stablehlo.subtract %5, %9 : tensor<12xf32>
    return %0, %1, %2, %10 : tensor<12xi32>, tensor<12xi32>, tensor<10x12xf32>, tensor<12xf32>
  }
  func.func private @argmax(%arg0: tensor<10x12xf32>) -> tensor<12xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<10x12xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<10x12xf32>, tensor<10x12xi32>, tensor<f32>, tensor<i32>) -> (tensor<12xf32>, tensor<12xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<12xi32>
  }
  func.func private @argmin(%arg0: tensor<10x12xf32>) -> tensor<12xi32> {
    %0 = stablehlo.iota dim = 0 : tensor<10x12xi32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<10x12xf32>, tensor<10x12xi32>, tensor<f32>, tensor<i32>) -> (tensor<12xf32>, tensor<12xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare LT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<12xi32>
  }
  func.func private @_one_hot(%arg0: tensor<12xi32>) -> tensor<10x12xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<12xi32>) -> tensor<1x12xi32>
    %1 = stablehlo.iota dim = 0 : tensor<10x1xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<1x12xi32>) -> tensor<10x12xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<10x1xi32>) -> tensor<10x12xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<10x12xi32>, tensor<10x12xi32>) -> tensor<10x12xi1>
    %5 = stablehlo.convert %4 : (tensor<10x12xi1>) -> tensor<10x12xf32>
    return %5 : tensor<10x12xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<10x12xf32>, %arg1: tensor<1x12xi32>) -> tensor<1x12xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<1x12xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<1x12xi32>, tensor<1x12xi32>) -> tensor<1x12xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1x12xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<1x12xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<1x12xi1>, tensor<1x12xi32>
    %5 = stablehlo.reshape %4 : (tensor<1x12xi32>) -> tensor<1x12x1xi32>
    %c_1 = stablehlo.constant dense<9> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<1x12x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<1x12x1xi32>, tensor<1x12x1xi32>) -> tensor<1x12x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<1x12x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<1x12x1xi32>, tensor<1x12x1xi32>) -> tensor<1x12x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<1x12x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<1x12x1xi1>, tensor<i1>) -> tensor<1x12xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], operand_batching_dims = [1], start_indices_batching_dims = [1], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x12xf32>, tensor<1x12x1xi32>) -> tensor<1x12xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x12xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<1x12xi1>, tensor<1x12xf32>
    return %15 : tensor<1x12xf32>
  }
  func.func private @_where(%arg0: tensor<10x12xi1>, %arg1: tensor<f32>, %arg2: tensor<10x12xf32>) -> tensor<10x12xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<10x12xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<10x12xi1>, tensor<10x12xf32>
    return %2 : tensor<10x12xf32>
  }
}
