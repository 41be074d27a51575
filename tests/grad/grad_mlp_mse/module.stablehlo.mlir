module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x24xf32>, %arg1: tensor<24xf32>, %arg2: tensor<24x3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<16x12xf32>, %arg5: tensor<16x3xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<12x24xf32> {jax.result_info = "result[1]"}, tensor<24xf32> {jax.result_info = "result[2]"}, tensor<24x3xf32> {jax.result_info = "result[3]"}, tensor<3xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x12xf32>, tensor<12x24xf32>) -> tensor<16x24xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<24xf32>) -> tensor<1x24xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x24xf32>) -> tensor<16x24xf32>
    %3 = stablehlo.add %0, %2 : tensor<16x24xf32>
    %4 = stablehlo.tanh %3 : tensor<16x24xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %6 = stablehlo.subtract %5, %4 : tensor<16x24xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %8 = stablehlo.multiply %4, %7 : tensor<16x24xf32>
    %cst_1 = stablehlo.constant dense<3.000000e-01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %10 = stablehlo.subtract %8, %9 : tensor<16x24xf32>
    %11 = call @relu(%10) : (tensor<16x24xf32>) -> tensor<16x24xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %13 = stablehlo.compare GT, %10, %12, FLOAT : (tensor<16x24xf32>, tensor<16x24xf32>) -> tensor<16x24xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %15 = stablehlo.dot_general %11, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x24xf32>, tensor<24x3xf32>) -> tensor<16x3xf32>
    %16 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<16x3xf32>
    %18 = stablehlo.add %15, %17 : tensor<16x3xf32>
    %19 = stablehlo.subtract %18, %arg5 : tensor<16x3xf32>
    %20 = stablehlo.multiply %19, %19 : tensor<16x3xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %22 = stablehlo.multiply %21, %19 : tensor<16x3xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%20 init: %cst_5) applies stablehlo.add across dimensions = [0, 1] : (tensor<16x3xf32>, tensor<f32>) -> tensor<f32>
    %cst_6 = stablehlo.constant dense<4.800000e+01> : tensor<f32>
    %24 = stablehlo.divide %23, %cst_6 : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_8 = stablehlo.constant dense<4.800000e+01> : tensor<f32>
    %25 = stablehlo.divide %cst_7, %cst_8 : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %27 = stablehlo.multiply %26, %22 : tensor<16x3xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.reduce(%27 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<16x3xf32>, tensor<f32>) -> tensor<3xf32>
    %29 = stablehlo.reshape %28 : (tensor<3xf32>) -> tensor<1x3xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %30 = stablehlo.reduce(%29 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<1x3xf32>, tensor<f32>) -> tensor<3xf32>
    %31 = stablehlo.dot_general %27, %11, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x3xf32>, tensor<16x24xf32>) -> tensor<3x24xf32>
    %32 = stablehlo.transpose %31, dims = [1, 0] : (tensor<3x24xf32>) -> tensor<24x3xf32>
    %33 = stablehlo.dot_general %27, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<16x3xf32>, tensor<24x3xf32>) -> tensor<16x24xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %35 = stablehlo.select %13, %33, %34 : tensor<16x24xi1>, tensor<16x24xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %37 = stablehlo.multiply %35, %36 : tensor<16x24xf32>
    %38 = stablehlo.multiply %37, %6 : tensor<16x24xf32>
    %39 = stablehlo.multiply %38, %4 : tensor<16x24xf32>
    %40 = stablehlo.add %38, %39 : tensor<16x24xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_13) applies stablehlo.add across dimensions = [0] : (tensor<16x24xf32>, tensor<f32>) -> tensor<24xf32>
    %42 = stablehlo.reshape %41 : (tensor<24xf32>) -> tensor<1x24xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.reduce(%42 init: %cst_14) applies stablehlo.add across dimensions = [0] : (tensor<1x24xf32>, tensor<f32>) -> tensor<24xf32>
    %44 = stablehlo.dot_general %40, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<16x24xf32>, tensor<16x12xf32>) -> tensor<24x12xf32>
    %45 = stablehlo.transpose %44, dims = [1, 0] : (tensor<24x12xf32>) -> tensor<12x24xf32>
    return %24, %45, %43, %32, %30 : tensor<f32>, tensor<12x24xf32>, tensor<24xf32>, tensor<24x3xf32>, tensor<3xf32>
  }
  func.func private @relu(%arg0: tensor<16x24xf32>) -> tensor<16x24xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<16x24xf32>
    return %1 : tensor<16x24xf32>
  }
}
