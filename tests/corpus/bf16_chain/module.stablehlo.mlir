module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x64xbf16>, %arg1: tensor<8x64xbf16>, %arg2: tensor<8x64xbf16>) -> (tensor<8x64xbf16> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x64xbf16>
    %1 = stablehlo.add %0, %arg2 : tensor<8x64xbf16>
    %2 = stablehlo.tanh %1 : tensor<8x64xbf16>
    %3 = stablehlo.abs %arg2 : tensor<8x64xbf16>
    %4 = stablehlo.negate %3 : tensor<8x64xbf16>
    %5 = stablehlo.exponential %4 : tensor<8x64xbf16>
    %6 = stablehlo.multiply %2, %5 : tensor<8x64xbf16>
    %7 = stablehlo.multiply %arg0, %arg0 : tensor<8x64xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<8x64xbf16>
    %9 = stablehlo.add %7, %8 : tensor<8x64xbf16>
    %10 = stablehlo.rsqrt %9 : tensor<8x64xbf16>
    %11 = stablehlo.add %6, %10 : tensor<8x64xbf16>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<8x64xbf16>
    %13 = stablehlo.compare GT, %1, %12, FLOAT : (tensor<8x64xbf16>, tensor<8x64xbf16>) -> tensor<8x64xi1>
    %cst_1 = stablehlo.constant dense<2.500000e-01> : tensor<bf16>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<8x64xbf16>
    %15 = stablehlo.multiply %1, %14 : tensor<8x64xbf16>
    %16 = call @_where(%13, %11, %15) : (tensor<8x64xi1>, tensor<8x64xbf16>, tensor<8x64xbf16>) -> tensor<8x64xbf16>
    %c = stablehlo.constant dense<-3> : tensor<i32>
    %c_2 = stablehlo.constant dense<3> : tensor<i32>
    %17 = call @clip(%16, %c, %c_2) : (tensor<8x64xbf16>, tensor<i32>, tensor<i32>) -> tensor<8x64xbf16>
    %18 = stablehlo.convert %17 : (tensor<8x64xbf16>) -> tensor<8x64xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.reduce(%18 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<8x64xf32>, tensor<f32>) -> tensor<8xf32>
    return %17, %19 : tensor<8x64xbf16>, tensor<8xf32>
  }
  func.func private @_where(%arg0: tensor<8x64xi1>, %arg1: tensor<8x64xbf16>, %arg2: tensor<8x64xbf16>) -> tensor<8x64xbf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<8x64xi1>, tensor<8x64xbf16>
    return %0 : tensor<8x64xbf16>
  }
  func.func private @clip(%arg0: tensor<8x64xbf16>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<8x64xbf16> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<bf16>) -> tensor<8x64xbf16>
    %2 = stablehlo.maximum %1, %arg0 : tensor<8x64xbf16>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<bf16>) -> tensor<8x64xbf16>
    %5 = stablehlo.minimum %4, %2 : tensor<8x64xbf16>
    return %5 : tensor<8x64xbf16>
  }
}
