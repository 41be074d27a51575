module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x300xf32>) -> (tensor<4xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.699999988> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x300xf32>
    %1 = stablehlo.divide %arg0, %0 : tensor<4x300xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %4 = stablehlo.maximum %3, %2 : tensor<4xf32>
    %5 = stablehlo.is_finite %4 : (tensor<4xf32>) -> tensor<4xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %7 = stablehlo.select %5, %4, %6 : tensor<4xi1>, tensor<4xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x300xf32>
    %10 = stablehlo.subtract %1, %9 : tensor<4x300xf32>
    %11 = stablehlo.exponential %10 : tensor<4x300xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%11 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.sign %12 : tensor<4xf32>
    %14 = stablehlo.abs %12 : tensor<4xf32>
    %15 = stablehlo.log %14 : tensor<4xf32>
    %16 = stablehlo.add %15, %7 : tensor<4xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x300xf32>
    %19 = stablehlo.subtract %1, %18 : tensor<4x300xf32>
    %20 = stablehlo.exponential %19 : tensor<4x300xf32>
    %21 = stablehlo.multiply %20, %19 : tensor<4x300xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.reduce(%21 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
    %23 = stablehlo.negate %22 : tensor<4xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.reduce(%1 init: %cst_5) applies stablehlo.maximum across dimensions = [1] : (tensor<4x300xf32>, tensor<f32>) -> tensor<4xf32>
    %25 = stablehlo.subtract %24, %16 : tensor<4xf32>
    return %16, %23, %25 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
