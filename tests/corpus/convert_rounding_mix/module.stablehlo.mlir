module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<512xf32>, %arg1: tensor<512xi32>) -> (tensor<512xi32> {jax.result_info = "result[0]"}, tensor<512xi32> {jax.result_info = "result[1]"}, tensor<512xi32> {jax.result_info = "result[2]"}, tensor<512xui8> {jax.result_info = "result[3]"}, tensor<512xi8> {jax.result_info = "result[4]"}, tensor<512xf32> {jax.result_info = "result[5]"}, tensor<512xf32> {jax.result_info = "result[6]"}, tensor<512xf32> {jax.result_info = "result[7]"}) {
    %0 = call @round(%arg0) : (tensor<512xf32>) -> tensor<512xf32>
    %1 = stablehlo.convert %0 : (tensor<512xf32>) -> tensor<512xi32>
    %2 = stablehlo.floor %arg0 : tensor<512xf32>
    %3 = stablehlo.convert %2 : (tensor<512xf32>) -> tensor<512xi32>
    %4 = stablehlo.ceil %arg0 : tensor<512xf32>
    %5 = stablehlo.convert %4 : (tensor<512xf32>) -> tensor<512xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<255> : tensor<i32>
    %6 = call @clip(%arg0, %c, %c_0) : (tensor<512xf32>, tensor<i32>, tensor<i32>) -> tensor<512xf32>
    %7 = stablehlo.convert %6 : (tensor<512xf32>) -> tensor<512xui8>
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %9 = stablehlo.divide %arg0, %8 : tensor<512xf32>
    %10 = call @round(%9) : (tensor<512xf32>) -> tensor<512xf32>
    %c_1 = stablehlo.constant dense<-128> : tensor<i32>
    %c_2 = stablehlo.constant dense<127> : tensor<i32>
    %11 = call @clip(%10, %c_1, %c_2) : (tensor<512xf32>, tensor<i32>, tensor<i32>) -> tensor<512xf32>
    %12 = stablehlo.convert %11 : (tensor<512xf32>) -> tensor<512xi8>
    %13 = stablehlo.convert %arg0 : (tensor<512xf32>) -> tensor<512xf16>
    %14 = stablehlo.convert %13 : (tensor<512xf16>) -> tensor<512xf32>
    %15 = stablehlo.convert %arg0 : (tensor<512xf32>) -> tensor<512xbf16>
    %16 = stablehlo.convert %15 : (tensor<512xbf16>) -> tensor<512xf32>
    %17 = stablehlo.convert %arg1 : (tensor<512xi32>) -> tensor<512xf32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %19 = stablehlo.multiply %17, %18 : tensor<512xf32>
    return %1, %3, %5, %7, %12, %14, %16, %19 : tensor<512xi32>, tensor<512xi32>, tensor<512xi32>, tensor<512xui8>, tensor<512xi8>, tensor<512xf32>, tensor<512xf32>, tensor<512xf32>
  }
  func.func private @round(%arg0: tensor<512xf32>) -> tensor<512xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<512xf32>
    return %0 : tensor<512xf32>
  }
  func.func private @clip(%arg0: tensor<512xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<512xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<512xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<512xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<512xf32>
    return %5 : tensor<512xf32>
  }
}
