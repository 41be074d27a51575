module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>) -> (tensor<16xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i32>, tensor<i32>, tensor<16xf32>
    cond {
      %c_3 = stablehlo.constant dense<10> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg_1, %iterArg_2) : (tensor<i32>, tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>)
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i32>
      stablehlo.return %2, %1#0, %1#1 : tensor<i32>, tensor<i32>, tensor<16xf32>
    }
    return %0#2 : tensor<16xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<16xf32>) -> (tensor<i32>, tensor<16xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%iterArg = %arg1, %iterArg_4 = %c_0) : tensor<16xf32>, tensor<i32>
    cond {
      %12 = stablehlo.abs %iterArg : tensor<16xf32>
      %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %13 = stablehlo.reduce(%12 init: %cst_5) applies stablehlo.maximum across dimensions = [0] : (tensor<16xf32>, tensor<f32>) -> tensor<f32>
      %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %14 = stablehlo.compare GT, %13, %cst_6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_7 = stablehlo.constant dense<8> : tensor<i32>
      %15 = stablehlo.compare LT, %iterArg_4, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %16 = stablehlo.and %14, %15 : tensor<i1>
      stablehlo.return %16 : tensor<i1>
    } do {
      %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %13 = stablehlo.multiply %iterArg, %12 : tensor<16xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %14 = stablehlo.add %iterArg_4, %c_6 : tensor<i32>
      stablehlo.return %13, %14 : tensor<16xf32>, tensor<i32>
    }
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %2 = call @remainder(%1#1, %c_1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare EQ, %2, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.convert %3 : (tensor<i1>) -> tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %cst_4 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
      %12 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %13 = stablehlo.multiply %1#0, %12 : tensor<16xf32>
      %cst_5 = stablehlo.constant dense<0.00999999977> : tensor<f32>
      %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %15 = stablehlo.add %13, %14 : tensor<16xf32>
      stablehlo.return %15 : tensor<16xf32>
    }, {
      %12 = stablehlo.sine %1#0 : tensor<16xf32>
      %cst_4 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
      %13 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
      %14 = stablehlo.multiply %13, %1#0 : tensor<16xf32>
      %15 = stablehlo.add %12, %14 : tensor<16xf32>
      stablehlo.return %15 : tensor<16xf32>
    }) : (tensor<i32>) -> tensor<16xf32>
    %6 = call @_roll_static(%5) : (tensor<16xf32>) -> tensor<16xf32>
    %cst = stablehlo.constant dense<0.899999976> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<16xf32>
    %cst_3 = stablehlo.constant dense<2.000000e-01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %10 = stablehlo.multiply %5, %9 : tensor<16xf32>
    %11 = stablehlo.add %8, %10 : tensor<16xf32>
    return %0, %11 : tensor<i32>, tensor<16xf32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare NE, %3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.compare NE, %5, %6, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %8 = stablehlo.and %7, %4 : tensor<i1>
    %9 = stablehlo.add %3, %2 : tensor<i32>
    %10 = stablehlo.select %8, %9, %3 : tensor<i1>, tensor<i32>
    return %10 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_roll_static(%arg0: tensor<16xf32>) -> tensor<16xf32> {
    %0 = stablehlo.slice %arg0 [15:16] : (tensor<16xf32>) -> tensor<1xf32>
    %1 = stablehlo.slice %arg0 [0:15] : (tensor<16xf32>) -> tensor<15xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<1xf32>, tensor<15xf32>) -> tensor<16xf32>
    return %2 : tensor<16xf32>
  }
}
