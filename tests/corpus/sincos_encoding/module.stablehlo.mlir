module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x32xf32>) -> (tensor<16x32xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<16xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
    %2 = stablehlo.iota dim = 0 : tensor<16xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x16xf32>
    %5 = stablehlo.multiply %4, %3 : tensor<1x16xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x16xf32>
    %7 = stablehlo.divide %5, %6 : tensor<1x16xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+04> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x16xf32>
    %9 = stablehlo.power %8, %7 : tensor<1x16xf32>
    %10 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x16xf32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<16x16xf32>
    %12 = stablehlo.divide %10, %11 : tensor<16x16xf32>
    %13 = stablehlo.sine %12 : tensor<16x16xf32>
    %14 = stablehlo.cosine %12 : tensor<16x16xf32>
    %15 = stablehlo.concatenate %13, %14, dim = 1 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x32xf32>
    %16 = stablehlo.add %arg0, %15 : tensor<16x32xf32>
    %17 = stablehlo.multiply %16, %16 : tensor<16x32xf32>
    %18 = stablehlo.multiply %17, %16 : tensor<16x32xf32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<16x32xf32>
    %21 = stablehlo.add %16, %20 : tensor<16x32xf32>
    %cst_3 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %23 = stablehlo.multiply %22, %21 : tensor<16x32xf32>
    %24 = stablehlo.tanh %23 : tensor<16x32xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %26 = stablehlo.add %25, %24 : tensor<16x32xf32>
    %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %28 = stablehlo.multiply %27, %26 : tensor<16x32xf32>
    %29 = stablehlo.multiply %16, %28 : tensor<16x32xf32>
    return %29 : tensor<16x32xf32>
  }
}
