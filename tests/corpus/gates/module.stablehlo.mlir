module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x64xf32>, %arg1: tensor<8x64xf32>) -> (tensor<8x64xf32> {jax.result_info = "result"}) {
    %0 = call @softplus(%arg0) : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %1 = stablehlo.negate %arg1 : tensor<8x64xf32>
    %2 = stablehlo.exponential %1 : tensor<8x64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %4 = stablehlo.add %3, %2 : tensor<8x64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %6 = stablehlo.divide %5, %4 : tensor<8x64xf32>
    %7 = stablehlo.multiply %0, %6 : tensor<8x64xf32>
    %8 = stablehlo.subtract %arg0, %arg1 : tensor<8x64xf32>
    %9 = call @log_sigmoid(%8) : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %10 = stablehlo.add %7, %9 : tensor<8x64xf32>
    return %10 : tensor<8x64xf32>
  }
  func.func private @softplus(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x64xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<8x64xf32>
    %4 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xi1>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<8x64xf32>
    %7 = stablehlo.abs %3 : tensor<8x64xf32>
    %8 = stablehlo.negate %7 : tensor<8x64xf32>
    %9 = stablehlo.exponential %8 : tensor<8x64xf32>
    %10 = stablehlo.log_plus_one %9 : tensor<8x64xf32>
    %11 = stablehlo.add %1, %10 : tensor<8x64xf32>
    %12 = stablehlo.select %4, %6, %11 : tensor<8x64xi1>, tensor<8x64xf32>
    return %12 : tensor<8x64xf32>
  }
  func.func private @log_sigmoid(%arg0: tensor<8x64xf32>) -> tensor<8x64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<8x64xf32>
    %1 = call @softplus(%0) : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %2 = stablehlo.negate %1 : tensor<8x64xf32>
    return %2 : tensor<8x64xf32>
  }
}
