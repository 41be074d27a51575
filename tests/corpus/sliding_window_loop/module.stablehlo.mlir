module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>) -> (tensor<60xf32> {jax.result_info = "result[0]"}, tensor<60xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<60xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<60xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c_1, %iterArg_3 = %c, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<64xf32>, tensor<i32>, tensor<i32>, tensor<60xf32>, tensor<60xf32>
    cond {
      %c_6 = stablehlo.constant dense<60> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_2, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3:3 = func.call @closed_call(%iterArg, %iterArg_3, %iterArg_4, %iterArg_5) : (tensor<64xf32>, tensor<i32>, tensor<60xf32>, tensor<60xf32>) -> (tensor<i32>, tensor<60xf32>, tensor<60xf32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.add %iterArg_2, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %4, %3#0, %3#1, %3#2 : tensor<64xf32>, tensor<i32>, tensor<i32>, tensor<60xf32>, tensor<60xf32>
    }
    return %2#3, %2#4 : tensor<60xf32>, tensor<60xf32>
  }
  func.func private @closed_call(%arg0: tensor<64xf32>, %arg1: tensor<i32>, %arg2: tensor<60xf32>, %arg3: tensor<60xf32>) -> (tensor<i32>, tensor<60xf32>, tensor<60xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare LT, %arg1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %arg1 : tensor<i32>
    %c_1 = stablehlo.constant dense<64> : tensor<i32>
    %3 = stablehlo.add %2, %c_1 : tensor<i32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<i1>, tensor<i32>
    %5 = stablehlo.dynamic_slice %arg0, %4, sizes = [5] : (tensor<64xf32>, tensor<i32>) -> tensor<5xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %arg1, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = stablehlo.convert %arg1 : tensor<i32>
    %c_3 = stablehlo.constant dense<60> : tensor<i32>
    %10 = stablehlo.add %9, %c_3 : tensor<i32>
    %11 = stablehlo.select %8, %10, %arg1 : tensor<i1>, tensor<i32>
    %12 = stablehlo.dynamic_update_slice %arg2, %7, %11 : (tensor<60xf32>, tensor<1xf32>, tensor<i32>) -> tensor<60xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%5 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_5 = stablehlo.constant dense<5.000000e+00> : tensor<f32>
    %14 = stablehlo.divide %13, %cst_5 : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.compare LT, %arg1, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %17 = stablehlo.convert %arg1 : tensor<i32>
    %c_7 = stablehlo.constant dense<60> : tensor<i32>
    %18 = stablehlo.add %17, %c_7 : tensor<i32>
    %19 = stablehlo.select %16, %18, %arg1 : tensor<i1>, tensor<i32>
    %20 = stablehlo.dynamic_update_slice %arg3, %15, %19 : (tensor<60xf32>, tensor<1xf32>, tensor<i32>) -> tensor<60xf32>
    return %0, %12, %20 : tensor<i32>, tensor<60xf32>, tensor<60xf32>
  }
}
