module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}, tensor<ui32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %1 = call @floor_divide(%0, %c_0) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:4 = stablehlo.while(%iterArg = %arg0, %iterArg_4 = %arg0, %iterArg_5 = %1, %iterArg_6 = %c_1) : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
    cond {
      %5 = stablehlo.compare LT, %iterArg_5, %iterArg_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    } do {
      %5 = func.call @floor_divide_0(%iterArg, %iterArg_5) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %6 = stablehlo.add %iterArg_5, %5 : tensor<i32>
      %c_7 = stablehlo.constant dense<2> : tensor<i32>
      %7 = func.call @floor_divide(%6, %c_7) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_6, %c_8 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_5, %7, %8 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
    }
    %3 = stablehlo.convert %2#1 : (tensor<i32>) -> tensor<ui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %4:3 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3) : tensor<i32>, tensor<i32>, tensor<ui32>
    cond {
      %c_6 = stablehlo.constant dense<100> : tensor<i32>
      %5 = stablehlo.compare LT, %iterArg, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    } do {
      %5:2 = func.call @closed_call(%iterArg_4, %iterArg_5) : (tensor<i32>, tensor<ui32>) -> (tensor<i32>, tensor<ui32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg, %c_6 : tensor<i32>
      stablehlo.return %6, %5#0, %5#1 : tensor<i32>, tensor<i32>, tensor<ui32>
    }
    return %2#1, %2#3, %4#2 : tensor<i32>, tensor<i32>, tensor<ui32>
  }
  func.func private @floor_divide(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.divide %arg0, %0 : tensor<i32>
    %2 = stablehlo.sign %arg0 : tensor<i32>
    %3 = stablehlo.sign %0 : tensor<i32>
    %4 = stablehlo.compare NE, %2, %3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.remainder %arg0, %0 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare NE, %5, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %4, %6 : tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.subtract %1, %c_0 : tensor<i32>
    %9 = call @_where(%7, %8, %1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %9 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @floor_divide_0(%arg0: tensor<i32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<i32>
    %1 = stablehlo.sign %arg0 : tensor<i32>
    %2 = stablehlo.sign %arg1 : tensor<i32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare NE, %4, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %6 = stablehlo.and %3, %5 : tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %7 = stablehlo.subtract %0, %c_0 : tensor<i32>
    %8 = call @_where(%6, %7, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %8 : tensor<i32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<ui32>) -> (tensor<i32>, tensor<ui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<13> : tensor<ui32>
    %1 = stablehlo.shift_left %arg1, %c_0 : tensor<ui32>
    %2 = stablehlo.xor %arg1, %1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<17> : tensor<ui32>
    %3 = stablehlo.shift_right_logical %2, %c_1 : tensor<ui32>
    %4 = stablehlo.xor %2, %3 : tensor<ui32>
    %c_2 = stablehlo.constant dense<5> : tensor<ui32>
    %5 = stablehlo.shift_left %4, %c_2 : tensor<ui32>
    %6 = stablehlo.xor %4, %5 : tensor<ui32>
    %7 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<ui32>
    %8 = stablehlo.xor %6, %7 : tensor<ui32>
    return %0, %8 : tensor<i32>, tensor<ui32>
  }
}
