module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf32>, %arg1: tensor<8x3xf32>, %arg2: tensor<4xf32>, %arg3: tensor<5x3xi32>, %arg4: tensor<8xi32>, %arg5: tensor<4xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<5x7xf32> {jax.result_info = "result[1]"}, tensor<8x3xf32> {jax.result_info = "result[2]"}, tensor<4xf32> {jax.result_info = "result[3]"}) {
    %0:2 = call @take_along_axis(%arg0, %arg3) : (tensor<5x7xf32>, tensor<5x3xi32>) -> (tensor<5x3xf32>, tensor<5x3x1xi32>)
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<8x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %3 = stablehlo.broadcast_in_dim %arg4, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %4 = "stablehlo.scatter"(%2, %3, %1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %64 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %64 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<8x1xi32>, tensor<8x3xf32>) -> tensor<4x3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %8 = stablehlo.multiply %arg2, %7 : tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %10 = stablehlo.compare LT, %arg5, %9, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_3 = stablehlo.constant dense<6> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %12 = stablehlo.add %arg5, %11 : tensor<4xi32>
    %13 = stablehlo.select %10, %12, %arg5 : tensor<4xi1>, tensor<4xi32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %15 = "stablehlo.scatter"(%6, %14, %8) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %64 = stablehlo.add %arg6, %arg7 : tensor<f32>
      stablehlo.return %64 : tensor<f32>
    }) : (tensor<6xf32>, tensor<4x1xi32>, tensor<4xf32>) -> tensor<6xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %17 = stablehlo.multiply %0#0, %0#0 : tensor<5x3xf32>
    %18 = stablehlo.multiply %17, %0#0 : tensor<5x3xf32>
    %19 = stablehlo.multiply %0#0, %0#0 : tensor<5x3xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<5x3xf32>
    %21 = stablehlo.multiply %20, %19 : tensor<5x3xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.reduce(%18 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<f32>
    %23 = stablehlo.sine %4 : tensor<4x3xf32>
    %24 = stablehlo.cosine %4 : tensor<4x3xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%23 init: %cst_7) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
    %26 = stablehlo.add %22, %25 : tensor<f32>
    %27 = stablehlo.iota dim = 0 : tensor<6xf32>
    %28 = stablehlo.multiply %15, %27 : tensor<6xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
    %30 = stablehlo.add %26, %29 : tensor<f32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %32 = stablehlo.multiply %31, %27 : tensor<6xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %34 = stablehlo.multiply %33, %24 : tensor<4x3xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<5x3xf32>
    %36 = stablehlo.multiply %35, %21 : tensor<5x3xf32>
    %c_12 = stablehlo.constant dense<5> : tensor<1xi32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %37 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %38 = stablehlo.compare GE, %14, %37, SIGNED : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %39 = stablehlo.broadcast_in_dim %c_12, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<4x1xi32>
    %41 = stablehlo.compare LE, %14, %40, SIGNED : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %42 = stablehlo.and %38, %41 : tensor<4x1xi1>
    %c_14 = stablehlo.constant dense<true> : tensor<i1>
    %43 = stablehlo.reduce(%42 init: %c_14) applies stablehlo.and across dimensions = [1] : (tensor<4x1xi1>, tensor<i1>) -> tensor<4xi1>
    %44 = "stablehlo.gather"(%32, %14) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<6xf32>, tensor<4x1xi32>) -> tensor<4xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %46 = stablehlo.select %43, %44, %45 : tensor<4xi1>, tensor<4xf32>
    %cst_16 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %48 = stablehlo.multiply %46, %47 : tensor<4xf32>
    %c_17 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %49 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<8x1xi32>
    %50 = stablehlo.compare GE, %3, %49, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %51 = stablehlo.broadcast_in_dim %c_17, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<8x1xi32>
    %53 = stablehlo.compare LE, %3, %52, SIGNED : (tensor<8x1xi32>, tensor<8x1xi32>) -> tensor<8x1xi1>
    %54 = stablehlo.and %50, %53 : tensor<8x1xi1>
    %c_19 = stablehlo.constant dense<true> : tensor<i1>
    %55 = stablehlo.reduce(%54 init: %c_19) applies stablehlo.and across dimensions = [1] : (tensor<8x1xi1>, tensor<i1>) -> tensor<8xi1>
    %56 = "stablehlo.gather"(%34, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<8x1xi32>) -> tensor<8x3xf32>
    %57 = stablehlo.broadcast_in_dim %55, dims = [0] : (tensor<8xi1>) -> tensor<8x3xi1>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<8x3xf32>
    %59 = stablehlo.select %57, %56, %58 : tensor<8x3xi1>, tensor<8x3xf32>
    %60 = stablehlo.multiply %arg1, %59 : tensor<8x3xf32>
    %61 = stablehlo.multiply %59, %arg1 : tensor<8x3xf32>
    %62 = stablehlo.add %60, %61 : tensor<8x3xf32>
    %63 = call @take_along_axis_0(%0#1, %36) : (tensor<5x3x1xi32>, tensor<5x3xf32>) -> tensor<5x7xf32>
    return %30, %63, %62, %48 : tensor<f32>, tensor<5x7xf32>, tensor<8x3xf32>, tensor<4xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<5x7xf32>, %arg1: tensor<5x3xi32>) -> (tensor<5x3xf32>, tensor<5x3x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x3xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5x3xi32>, tensor<5x3xi32>) -> tensor<5x3xi1>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x3xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5x3xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<5x3xi1>, tensor<5x3xi32>
    %5 = stablehlo.reshape %4 : (tensor<5x3xi32>) -> tensor<5x3x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<5x7xf32>, tensor<5x3x1xi32>) -> tensor<5x3xf32>
    return %6, %5 : tensor<5x3xf32>, tensor<5x3x1xi32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<5x3x1xi32>, %arg1: tensor<5x3xf32>) -> tensor<5x7xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %c = stablehlo.constant dense<6> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<2147483647> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.minimum %c, %1 : tensor<1xi32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [2] : (tensor<1xi32>) -> tensor<5x3x1xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5x3x1xi32>
    %5 = stablehlo.clamp %4, %arg0, %3 : tensor<5x3x1xi32>
    %6 = "stablehlo.scatter"(%0, %5, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %7 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %7 : tensor<f32>
    }) : (tensor<5x7xf32>, tensor<5x3x1xi32>, tensor<5x3xf32>) -> tensor<5x7xf32>
    return %6 : tensor<5x7xf32>
  }
}
