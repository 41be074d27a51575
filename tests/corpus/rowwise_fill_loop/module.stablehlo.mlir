module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x8xf32>) -> (tensor<12x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:4 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %c_0, %iterArg_2 = %c, %iterArg_3 = %0) : tensor<12x8xf32>, tensor<i32>, tensor<i32>, tensor<12x8xf32>
    cond {
      %c_4 = stablehlo.constant dense<12> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_3) : (tensor<12x8xf32>, tensor<i32>, tensor<12x8xf32>) -> (tensor<i32>, tensor<12x8xf32>)
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %3, %2#0, %2#1 : tensor<12x8xf32>, tensor<i32>, tensor<i32>, tensor<12x8xf32>
    }
    return %1#3 : tensor<12x8xf32>
  }
  func.func private @closed_call(%arg0: tensor<12x8xf32>, %arg1: tensor<i32>, %arg2: tensor<12x8xf32>) -> (tensor<i32>, tensor<12x8xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<11> : tensor<i32>
    %1 = stablehlo.subtract %c_0, %arg1 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare LT, %1, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.convert %1 : tensor<i32>
    %c_2 = stablehlo.constant dense<12> : tensor<i32>
    %4 = stablehlo.add %3, %c_2 : tensor<i32>
    %5 = stablehlo.select %2, %4, %1 : tensor<i1>, tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %5, %c_3, sizes = [1, 8] : (tensor<12x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
    %7 = stablehlo.tanh %6 : tensor<1x8xf32>
    %8 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<1x8xf32>
    %10 = stablehlo.multiply %7, %9 : tensor<1x8xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.compare LT, %arg1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %12 = stablehlo.convert %arg1 : tensor<i32>
    %c_5 = stablehlo.constant dense<12> : tensor<i32>
    %13 = stablehlo.add %12, %c_5 : tensor<i32>
    %14 = stablehlo.select %11, %13, %arg1 : tensor<i1>, tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.dynamic_update_slice %arg2, %10, %14, %c_6 : (tensor<12x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<12x8xf32>
    return %0, %15 : tensor<i32>, tensor<12x8xf32>
  }
}
