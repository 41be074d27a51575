module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x10xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<i32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<8x10xf32> {jax.result_info = "result[1]"}, tensor<3x4xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.slice %arg0 [1:7:2, 0:10:3] : (tensor<8x10xf32>) -> tensor<3x4xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.pad %0, %cst, low = [1, 2], high = [-1, 0], interior = [1, 0] : (tensor<3x4xf32>, tensor<f32>) -> tensor<5x6xf32>
    %2 = call @_flip(%1) : (tensor<5x6xf32>) -> tensor<5x6xf32>
    %3 = stablehlo.concatenate %1, %2, dim = 1 : (tensor<5x6xf32>, tensor<5x6xf32>) -> tensor<5x12xf32>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<5x12xf32>) -> tensor<12x5xf32>
    %5 = stablehlo.dot_general %4, %3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x5xf32>, tensor<5x12xf32>) -> tensor<12x12xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %6 = stablehlo.add %arg2, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %arg2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<8> : tensor<i32>
    %8 = stablehlo.add %arg2, %c_1 : tensor<i32>
    %9 = stablehlo.select %7, %8, %arg2 : tensor<i1>, tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.compare LT, %6, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<10> : tensor<i32>
    %11 = stablehlo.add %6, %c_3 : tensor<i32>
    %12 = stablehlo.select %10, %11, %6 : tensor<i1>, tensor<i32>
    %13 = stablehlo.dynamic_slice %arg0, %9, %12, sizes = [3, 4] : (tensor<8x10xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %14 = stablehlo.multiply %arg1, %13 : tensor<3x4xf32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %15 = stablehlo.add %arg2, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.compare LT, %15, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_6 = stablehlo.constant dense<8> : tensor<i32>
    %17 = stablehlo.add %15, %c_6 : tensor<i32>
    %18 = stablehlo.select %16, %17, %15 : tensor<i1>, tensor<i32>
    %c_7 = stablehlo.constant dense<3> : tensor<i32>
    %19 = stablehlo.dynamic_update_slice %arg0, %14, %18, %c_7 : (tensor<8x10xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x10xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%5 init: %cst_8) applies stablehlo.add across dimensions = [0, 1] : (tensor<12x12xf32>, tensor<f32>) -> tensor<f32>
    %cst_9 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %21 = stablehlo.multiply %20, %cst_9 : tensor<f32>
    %22 = stablehlo.sine %19 : tensor<8x10xf32>
    %23 = stablehlo.cosine %19 : tensor<8x10xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%22 init: %cst_10) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<f32>
    %25 = stablehlo.add %21, %24 : tensor<f32>
    %26 = stablehlo.multiply %13, %13 : tensor<3x4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_11) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %28 = stablehlo.add %25, %27 : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %30 = stablehlo.multiply %13, %29 : tensor<3x4xf32>
    %31 = stablehlo.multiply %29, %13 : tensor<3x4xf32>
    %32 = stablehlo.add %30, %31 : tensor<3x4xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %34 = stablehlo.multiply %33, %23 : tensor<8x10xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_15 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %35 = stablehlo.multiply %cst_14, %cst_15 : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<f32>) -> tensor<12x12xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %c_17 = stablehlo.constant dense<3> : tensor<i32>
    %38 = stablehlo.dynamic_update_slice %34, %37, %18, %c_17 : (tensor<8x10xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x10xf32>
    %c_18 = stablehlo.constant dense<3> : tensor<i32>
    %39 = stablehlo.dynamic_slice %34, %18, %c_18, sizes = [3, 4] : (tensor<8x10xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %40 = stablehlo.multiply %arg1, %39 : tensor<3x4xf32>
    %41 = stablehlo.add %32, %40 : tensor<3x4xf32>
    %42 = stablehlo.multiply %39, %13 : tensor<3x4xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %44 = stablehlo.dynamic_update_slice %43, %41, %9, %12 : (tensor<8x10xf32>, tensor<3x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x10xf32>
    %45 = stablehlo.add %38, %44 : tensor<8x10xf32>
    %46 = stablehlo.dot_general %36, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<12x12xf32>, tensor<12x5xf32>) -> tensor<12x5xf32>
    %47 = stablehlo.transpose %46, dims = [1, 0] : (tensor<12x5xf32>) -> tensor<5x12xf32>
    %48 = stablehlo.dot_general %36, %3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<12x12xf32>, tensor<5x12xf32>) -> tensor<12x5xf32>
    %49 = stablehlo.transpose %48, dims = [1, 0] : (tensor<12x5xf32>) -> tensor<5x12xf32>
    %50 = stablehlo.add %47, %49 : tensor<5x12xf32>
    %51 = stablehlo.slice %50 [0:5, 0:6] : (tensor<5x12xf32>) -> tensor<5x6xf32>
    %52 = stablehlo.slice %50 [0:5, 6:12] : (tensor<5x12xf32>) -> tensor<5x6xf32>
    %53 = call @_flip_0(%52) : (tensor<5x6xf32>) -> tensor<5x6xf32>
    %54 = stablehlo.add %51, %53 : tensor<5x6xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.pad %54, %cst_20, low = [-1, -2], high = [1, 0], interior = [0, 0] : (tensor<5x6xf32>, tensor<f32>) -> tensor<5x4xf32>
    %56 = stablehlo.slice %55 [0:5:2, 0:4] : (tensor<5x4xf32>) -> tensor<3x4xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.pad %56, %cst_21, low = [1, 0], high = [2, 0], interior = [1, 2] : (tensor<3x4xf32>, tensor<f32>) -> tensor<8x10xf32>
    %58 = stablehlo.add %45, %57 : tensor<8x10xf32>
    return %28, %58, %42 : tensor<f32>, tensor<8x10xf32>, tensor<3x4xf32>
  }
  func.func private @_flip(%arg0: tensor<5x6xf32>) -> tensor<5x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<5x6xf32>
    return %0 : tensor<5x6xf32>
  }
  func.func private @_flip_0(%arg0: tensor<5x6xf32>) -> tensor<5x6xf32> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<5x6xf32>
    return %0 : tensor<5x6xf32>
  }
}
