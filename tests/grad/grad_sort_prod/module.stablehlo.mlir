module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x6xf32> {jax.result_info = "result[1]"}, tensor<4x6xf32> {jax.result_info = "result[2]"}) {
    %0:2 = call @sort(%arg0) : (tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6x1xui32>)
    %1 = stablehlo.slice %arg0 [0:4, 0:1] : (tensor<4x6xf32>) -> tensor<4x1xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x1xf32>) -> tensor<4xf32>
    %3 = stablehlo.slice %arg1 [0:4, 1:2] : (tensor<4x6xf32>) -> tensor<4x1xf32>
    %4 = stablehlo.reshape %3 : (tensor<4x1xf32>) -> tensor<4xf32>
    %5 = stablehlo.iota dim = 0 : tensor<4xui32>
    %6:3 = "stablehlo.sort"(%2, %4, %5) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>, %arg6: tensor<ui32>, %arg7: tensor<ui32>):
      %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %108 = stablehlo.compare EQ, %arg2, %cst_28, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %109 = stablehlo.select %108, %cst_29, %arg2 : tensor<i1>, tensor<f32>
      %110 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_30 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %111 = stablehlo.select %110, %cst_30, %109 : tensor<i1>, tensor<f32>
      %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %112 = stablehlo.compare EQ, %arg3, %cst_31, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %113 = stablehlo.select %112, %cst_32, %arg3 : tensor<i1>, tensor<f32>
      %114 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_33 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %115 = stablehlo.select %114, %cst_33, %113 : tensor<i1>, tensor<f32>
      %116 = stablehlo.compare LT, %111, %115, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %116 : tensor<i1>
    }) : (tensor<4xf32>, tensor<4xf32>, tensor<4xui32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xui32>)
    %7 = stablehlo.broadcast_in_dim %6#2, dims = [0] : (tensor<4xui32>) -> tensor<4x1xui32>
    %8 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<24xf32>
    %9:2 = call @sort_0(%8) : (tensor<24xf32>) -> (tensor<24xf32>, tensor<24x1xui32>)
    %10 = stablehlo.slice %9#0 [19:24] : (tensor<24xf32>) -> tensor<5xf32>
    %11 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
    %12 = stablehlo.reshape %11 : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %13 = stablehlo.slice %12 [0:3, 0:4] : (tensor<6x4xf32>) -> tensor<3x4xf32>
    %14 = stablehlo.slice %12 [3:6, 0:4] : (tensor<6x4xf32>) -> tensor<3x4xf32>
    %15 = stablehlo.multiply %13, %14 : tensor<3x4xf32>
    %16 = stablehlo.slice %15 [0:2, 0:4] : (tensor<3x4xf32>) -> tensor<2x4xf32>
    %17 = stablehlo.slice %15 [2:3, 0:4] : (tensor<3x4xf32>) -> tensor<1x4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.pad %17, %cst, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<2x4xf32>
    %20 = stablehlo.slice %19 [0:1, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %21 = stablehlo.slice %19 [1:2, 0:4] : (tensor<2x4xf32>) -> tensor<1x4xf32>
    %22 = stablehlo.multiply %20, %21 : tensor<1x4xf32>
    %23 = stablehlo.reshape %22 : (tensor<1x4xf32>) -> tensor<4xf32>
    %24 = stablehlo.slice %arg1 [0:4, 0:3] : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %26 = stablehlo.add %24, %25 : tensor<4x3xf32>
    %27 = stablehlo.slice %26 [0:2, 0:3] : (tensor<4x3xf32>) -> tensor<2x3xf32>
    %28 = stablehlo.slice %26 [2:4, 0:3] : (tensor<4x3xf32>) -> tensor<2x3xf32>
    %29 = stablehlo.multiply %27, %28 : tensor<2x3xf32>
    %30 = stablehlo.slice %29 [0:1, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
    %31 = stablehlo.slice %29 [1:2, 0:3] : (tensor<2x3xf32>) -> tensor<1x3xf32>
    %32 = stablehlo.multiply %30, %31 : tensor<1x3xf32>
    %33 = stablehlo.reshape %32 : (tensor<1x3xf32>) -> tensor<3xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.reduce(%33 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %36 = stablehlo.add %23, %35 : tensor<4xf32>
    %37 = stablehlo.iota dim = 0 : tensor<6xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [1] : (tensor<6xf32>) -> tensor<1x6xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<4x6xf32>
    %40 = stablehlo.multiply %0#0, %39 : tensor<4x6xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
    %42 = stablehlo.multiply %6#1, %6#1 : tensor<4xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %44 = stablehlo.multiply %43, %6#1 : tensor<4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.reduce(%42 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %46 = stablehlo.add %41, %45 : tensor<f32>
    %47 = stablehlo.multiply %10, %10 : tensor<5xf32>
    %48 = stablehlo.multiply %47, %10 : tensor<5xf32>
    %49 = stablehlo.multiply %10, %10 : tensor<5xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %51 = stablehlo.multiply %50, %49 : tensor<5xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %52 = stablehlo.reduce(%48 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %53 = stablehlo.add %46, %52 : tensor<f32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54 = stablehlo.reduce(%36 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %55 = stablehlo.add %53, %54 : tensor<f32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %58 = stablehlo.multiply %57, %51 : tensor<5xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %60 = stablehlo.multiply %59, %44 : tensor<4xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %62 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<1x6xf32>) -> tensor<4x6xf32>
    %63 = stablehlo.multiply %61, %62 : tensor<4x6xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %64 = stablehlo.reduce(%56 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %67 = stablehlo.multiply %30, %66 : tensor<1x3xf32>
    %68 = stablehlo.multiply %66, %31 : tensor<1x3xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.pad %67, %cst_13, low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.pad %68, %cst_14, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<1x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %71 = stablehlo.add %69, %70 : tensor<2x3xf32>
    %72 = stablehlo.multiply %27, %71 : tensor<2x3xf32>
    %73 = stablehlo.multiply %71, %28 : tensor<2x3xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %74 = stablehlo.pad %72, %cst_15, low = [2, 0], high = [0, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.pad %73, %cst_16, low = [0, 0], high = [2, 0], interior = [0, 0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
    %76 = stablehlo.add %74, %75 : tensor<4x3xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.pad %76, %cst_17, low = [0, 0], high = [0, 3], interior = [0, 0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4x6xf32>
    %78 = stablehlo.broadcast_in_dim %56, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %79 = stablehlo.multiply %20, %78 : tensor<1x4xf32>
    %80 = stablehlo.multiply %78, %21 : tensor<1x4xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %81 = stablehlo.pad %79, %cst_18, low = [1, 0], high = [0, 0], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %82 = stablehlo.pad %80, %cst_19, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %83 = stablehlo.add %81, %82 : tensor<2x4xf32>
    %84 = stablehlo.multiply %16, %83 : tensor<2x4xf32>
    %85 = stablehlo.multiply %83, %18 : tensor<2x4xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.pad %84, %cst_20, low = [0, 0], high = [-1, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<1x4xf32>
    %87 = stablehlo.slice %86 [0:1, 0:4] : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.pad %87, %cst_21, low = [2, 0], high = [0, 0], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.pad %85, %cst_22, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    %90 = stablehlo.add %88, %89 : tensor<3x4xf32>
    %91 = stablehlo.multiply %13, %90 : tensor<3x4xf32>
    %92 = stablehlo.multiply %90, %14 : tensor<3x4xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %93 = stablehlo.pad %91, %cst_23, low = [3, 0], high = [0, 0], interior = [0, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<6x4xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %94 = stablehlo.pad %92, %cst_24, low = [0, 0], high = [3, 0], interior = [0, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<6x4xf32>
    %95 = stablehlo.add %93, %94 : tensor<6x4xf32>
    %96 = stablehlo.transpose %95, dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.pad %58, %cst_25, low = [19], high = [0], interior = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<24xf32>
    %98 = call @sort_1(%9#1, %97) : (tensor<24x1xui32>, tensor<24xf32>) -> tensor<24xf32>
    %99 = stablehlo.reshape %98 : (tensor<24xf32>) -> tensor<4x6xf32>
    %100 = stablehlo.add %96, %99 : tensor<4x6xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %102 = "stablehlo.scatter"(%101, %7, %60) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %108 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %108 : tensor<f32>
    }) : (tensor<4xf32>, tensor<4x1xui32>, tensor<4xf32>) -> tensor<4xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.pad %103, %cst_27, low = [0, 1], high = [0, 4], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x6xf32>
    %105 = stablehlo.add %77, %104 : tensor<4x6xf32>
    %106 = call @sort_2(%0#1, %63) : (tensor<4x6x1xui32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %107 = stablehlo.add %100, %106 : tensor<4x6xf32>
    return %55, %107, %105 : tensor<f32>, tensor<4x6xf32>, tensor<4x6xf32>
  }
  func.func private @sort(%arg0: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6x1xui32>) {
    %0 = stablehlo.iota dim = 1 : tensor<4x6xui32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.select %3, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %6 = stablehlo.select %5, %cst_1, %4 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.select %7, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %10 = stablehlo.select %9, %cst_4, %8 : tensor<i1>, tensor<f32>
      %11 = stablehlo.compare LT, %6, %10, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }) : (tensor<4x6xf32>, tensor<4x6xui32>) -> (tensor<4x6xf32>, tensor<4x6xui32>)
    %2 = stablehlo.broadcast_in_dim %1#1, dims = [0, 1] : (tensor<4x6xui32>) -> tensor<4x6x1xui32>
    return %1#0, %2 : tensor<4x6xf32>, tensor<4x6x1xui32>
  }
  func.func private @sort_0(%arg0: tensor<24xf32>) -> (tensor<24xf32>, tensor<24x1xui32>) {
    %0 = stablehlo.iota dim = 0 : tensor<24xui32>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %4 = stablehlo.select %3, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %5 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %6 = stablehlo.select %5, %cst_1, %4 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.select %7, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %10 = stablehlo.select %9, %cst_4, %8 : tensor<i1>, tensor<f32>
      %11 = stablehlo.compare LT, %6, %10, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    }) : (tensor<24xf32>, tensor<24xui32>) -> (tensor<24xf32>, tensor<24xui32>)
    %2 = stablehlo.broadcast_in_dim %1#1, dims = [0] : (tensor<24xui32>) -> tensor<24x1xui32>
    return %1#0, %2 : tensor<24xf32>, tensor<24x1xui32>
  }
  func.func private @sort_1(%arg0: tensor<24x1xui32>, %arg1: tensor<24xf32>) -> tensor<24xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<24xf32>, tensor<24x1xui32>, tensor<24xf32>) -> tensor<24xf32>
    return %1 : tensor<24xf32>
  }
  func.func private @sort_2(%arg0: tensor<4x6x1xui32>, %arg1: tensor<4x6xf32>) -> tensor<4x6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<4x6x1xui32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    return %1 : tensor<4x6xf32>
  }
}
