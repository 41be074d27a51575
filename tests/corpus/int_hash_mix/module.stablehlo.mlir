module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256xui32>, %arg1: tensor<256xi32>) -> (tensor<256xui32> {jax.result_info = "result[0]"}, tensor<256xui32> {jax.result_info = "result[1]"}, tensor<256xi32> {jax.result_info = "result[2]"}, tensor<3xi32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<[250, 500, 750]> : tensor<3xi32>
    %c_0 = stablehlo.constant dense<16> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %1 = stablehlo.shift_right_logical %arg0, %0 : tensor<256xui32>
    %2 = stablehlo.xor %arg0, %1 : tensor<256xui32>
    %c_1 = stablehlo.constant dense<2246822507> : tensor<ui32>
    %3 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %4 = stablehlo.multiply %2, %3 : tensor<256xui32>
    %c_2 = stablehlo.constant dense<13> : tensor<ui32>
    %5 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %6 = stablehlo.shift_right_logical %4, %5 : tensor<256xui32>
    %7 = stablehlo.xor %4, %6 : tensor<256xui32>
    %c_3 = stablehlo.constant dense<3266489909> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %9 = stablehlo.multiply %7, %8 : tensor<256xui32>
    %c_4 = stablehlo.constant dense<16> : tensor<ui32>
    %10 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %11 = stablehlo.shift_right_logical %9, %10 : tensor<256xui32>
    %12 = stablehlo.xor %9, %11 : tensor<256xui32>
    %c_5 = stablehlo.constant dense<7> : tensor<ui32>
    %13 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %14 = stablehlo.shift_left %12, %13 : tensor<256xui32>
    %c_6 = stablehlo.constant dense<25> : tensor<ui32>
    %15 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %16 = stablehlo.shift_right_logical %12, %15 : tensor<256xui32>
    %17 = stablehlo.or %14, %16 : tensor<256xui32>
    %c_7 = stablehlo.constant dense<1000> : tensor<ui32>
    %18 = call @remainder(%17, %c_7) : (tensor<256xui32>, tensor<ui32>) -> tensor<256xui32>
    %19 = stablehlo.convert %18 : (tensor<256xui32>) -> tensor<256xi32>
    %20 = stablehlo.xor %arg1, %19 : tensor<256xi32>
    %21 = stablehlo.popcnt %arg1 : tensor<256xi32>
    %22 = stablehlo.add %20, %21 : tensor<256xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %24 = stablehlo.or %arg1, %23 : tensor<256xi32>
    %25 = stablehlo.count_leading_zeros %24 : tensor<256xi32>
    %26 = stablehlo.subtract %22, %25 : tensor<256xi32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %28 = stablehlo.compare GT, %26, %27, SIGNED : (tensor<256xi32>, tensor<256xi32>) -> tensor<256xi1>
    %c_10 = stablehlo.constant dense<3> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %30 = stablehlo.shift_right_arithmetic %26, %29 : tensor<256xi32>
    %31 = stablehlo.negate %26 : tensor<256xi32>
    %c_11 = stablehlo.constant dense<3> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<256xi32>
    %33 = stablehlo.shift_right_arithmetic %31, %32 : tensor<256xi32>
    %34 = stablehlo.negate %33 : tensor<256xi32>
    %35 = call @_where_0(%28, %30, %34) : (tensor<256xi1>, tensor<256xi32>, tensor<256xi32>) -> tensor<256xi32>
    %36 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<256xi32>) -> tensor<256x1xi32>
    %37 = stablehlo.broadcast_in_dim %c, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %38 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<256x1xi32>) -> tensor<256x3xi32>
    %39 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<1x3xi32>) -> tensor<256x3xi32>
    %40 = stablehlo.compare LT, %38, %39, SIGNED : (tensor<256x3xi32>, tensor<256x3xi32>) -> tensor<256x3xi1>
    %41 = stablehlo.convert %40 : (tensor<256x3xi1>) -> tensor<256x3xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %42 = stablehlo.reduce(%41 init: %c_12) applies stablehlo.add across dimensions = [0] : (tensor<256x3xi32>, tensor<i32>) -> tensor<3xi32>
    return %12, %17, %35, %42 : tensor<256xui32>, tensor<256xui32>, tensor<256xi32>, tensor<3xi32>
  }
  func.func private @remainder(%arg0: tensor<256xui32>, %arg1: tensor<ui32>) -> tensor<256xui32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.compare EQ, %arg1, %c, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<ui32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<ui32>, tensor<ui32>) -> tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<256xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<ui32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %5 = stablehlo.compare NE, %3, %4, UNSIGNED : (tensor<256xui32>, tensor<256xui32>) -> tensor<256xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<ui32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %7 = stablehlo.compare LT, %3, %6, UNSIGNED : (tensor<256xui32>, tensor<256xui32>) -> tensor<256xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<ui32>
    %8 = stablehlo.compare LT, %1, %c_3, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i1>) -> tensor<256xi1>
    %10 = stablehlo.compare NE, %7, %9, UNSIGNED : (tensor<256xi1>, tensor<256xi1>) -> tensor<256xi1>
    %11 = stablehlo.and %10, %5 : tensor<256xi1>
    %12 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<ui32>) -> tensor<256xui32>
    %13 = stablehlo.add %3, %12 : tensor<256xui32>
    %14 = stablehlo.select %11, %13, %3 : tensor<256xi1>, tensor<256xui32>
    return %14 : tensor<256xui32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<ui32>, %arg2: tensor<ui32>) -> tensor<ui32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<ui32>
    return %0 : tensor<ui32>
  }
  func.func private @_where_0(%arg0: tensor<256xi1>, %arg1: tensor<256xi32>, %arg2: tensor<256xi32>) -> tensor<256xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<256xi1>, tensor<256xi32>
    return %0 : tensor<256xi32>
  }
}
