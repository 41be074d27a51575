module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x20xf32>) -> (tensor<12x20xf32> {jax.result_info = "result[0]"}, tensor<12x20xf32> {jax.result_info = "result[1]"}, tensor<12x20xi8> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<12x20xf32>, tensor<f32>) -> tensor<20xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<20xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<12x20xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<12x20xf32>
    %6 = stablehlo.exponential %5 : tensor<12x20xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<12x20xf32>, tensor<f32>) -> tensor<20xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<12x20xf32>
    %10 = stablehlo.divide %6, %9 : tensor<12x20xf32>
    %11 = stablehlo.multiply %arg0, %arg0 : tensor<12x20xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%11 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<12x20xf32>, tensor<f32>) -> tensor<20xf32>
    %cst_3 = stablehlo.constant dense<9.99999997E-7> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %14 = stablehlo.add %12, %13 : tensor<20xf32>
    %15 = stablehlo.sqrt %14 : tensor<20xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<12x20xf32>
    %18 = stablehlo.divide %arg0, %17 : tensor<12x20xf32>
    %19 = stablehlo.abs %arg0 : tensor<12x20xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_4) applies stablehlo.maximum across dimensions = [0] : (tensor<12x20xf32>, tensor<f32>) -> tensor<20xf32>
    %cst_5 = stablehlo.constant dense<1.270000e+02> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %22 = stablehlo.divide %21, %20 : tensor<20xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<12x20xf32>
    %25 = stablehlo.multiply %arg0, %24 : tensor<12x20xf32>
    %26 = call @round(%25) : (tensor<12x20xf32>) -> tensor<12x20xf32>
    %c = stablehlo.constant dense<-127> : tensor<i32>
    %c_6 = stablehlo.constant dense<127> : tensor<i32>
    %27 = call @clip(%26, %c, %c_6) : (tensor<12x20xf32>, tensor<i32>, tensor<i32>) -> tensor<12x20xf32>
    %28 = stablehlo.convert %27 : (tensor<12x20xf32>) -> tensor<12x20xi8>
    return %10, %18, %28 : tensor<12x20xf32>, tensor<12x20xf32>, tensor<12x20xi8>
  }
  func.func private @round(%arg0: tensor<12x20xf32>) -> tensor<12x20xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<12x20xf32>
    return %0 : tensor<12x20xf32>
  }
  func.func private @clip(%arg0: tensor<12x20xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<12x20xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12x20xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<12x20xf32>
    %3 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<12x20xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<12x20xf32>
    return %5 : tensor<12x20xf32>
  }
}
