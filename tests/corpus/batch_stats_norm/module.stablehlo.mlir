module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x8xf32>, %arg1: tensor<2x4x4x3xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>) -> (tensor<16x8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<8xf32> {jax.result_info = "result[2]"}, tensor<2x4x4x3xf32> {jax.result_info = "result[3]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.divide %0, %1 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<16x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<16x8xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<16x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<16x8xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %9 = stablehlo.divide %7, %8 : tensor<8xf32>
    %10 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<16x8xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<16x8xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %14 = stablehlo.add %9, %13 : tensor<8xf32>
    %15 = stablehlo.rsqrt %14 : tensor<8xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<16x8xf32>
    %18 = stablehlo.multiply %12, %17 : tensor<16x8xf32>
    %19 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<16x8xf32>
    %21 = stablehlo.multiply %18, %20 : tensor<16x8xf32>
    %22 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<16x8xf32>
    %24 = stablehlo.add %21, %23 : tensor<16x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%arg1 init: %cst_4) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<3xf32>
    %cst_5 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %27 = stablehlo.divide %25, %26 : tensor<3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %28 = call @_var(%arg1, %c) : (tensor<2x4x4x3xf32>, tensor<i32>) -> tensor<3xf32>
    %29 = stablehlo.broadcast_in_dim %27, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %31 = stablehlo.subtract %arg1, %30 : tensor<2x4x4x3xf32>
    %cst_6 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %33 = stablehlo.add %28, %32 : tensor<3xf32>
    %34 = stablehlo.sqrt %33 : tensor<3xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %37 = stablehlo.divide %31, %36 : tensor<2x4x4x3xf32>
    return %24, %2, %9, %37 : tensor<16x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x4x4x3xf32>
  }
  func.func private @_var(%arg0: tensor<2x4x4x3xf32>, %arg1: tensor<i32>) -> tensor<3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1x3xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1x3xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<2x4x4x3xf32>
    %6 = chlo.square %5 : tensor<2x4x4x3xf32> -> tensor<2x4x4x3xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x4x4x3xf32>, tensor<f32>) -> tensor<3xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %11 = stablehlo.divide %9, %10 : tensor<3xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %13 = call @_where(%12, %11, %cst_4) : (tensor<i1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    return %13 : tensor<3xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<3xf32>, %arg2: tensor<f32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<3xf32>
    return %2 : tensor<3xf32>
  }
}
