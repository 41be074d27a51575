module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x5xf32>, %arg1: tensor<4x5xf32>, %arg2: tensor<3x5xf32>, %arg3: tensor<6x3x4xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<5x5xf32> {jax.result_info = "result[1]"}, tensor<4x5xf32> {jax.result_info = "result[2]"}, tensor<3x5xf32> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %c, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.add %c_1, %c_2 : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.select %0, %1, %c_3 : tensor<i1>, tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %c_4, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<4> : tensor<i32>
    %4 = stablehlo.add %c_6, %c_7 : tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.select %3, %4, %c_8 : tensor<i1>, tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3x5xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<6x3x4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<6x3x5xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<6x3x5xf32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %10:12 = stablehlo.while(%iterArg = %arg0, %iterArg_20 = %arg3, %iterArg_21 = %2, %iterArg_22 = %5, %iterArg_23 = %arg1, %iterArg_24 = %c_13, %iterArg_25 = %c_9, %iterArg_26 = %arg2, %iterArg_27 = %6, %iterArg_28 = %7, %iterArg_29 = %8, %iterArg_30 = %9) : tensor<5x5xf32>, tensor<6x3x4xf32>, tensor<i32>, tensor<i32>, tensor<4x5xf32>, tensor<i32>, tensor<i32>, tensor<3x5xf32>, tensor<6x3x5xf32>, tensor<6x3x4xf32>, tensor<6x3x5xf32>, tensor<6x3x5xf32>
    cond {
      %c_31 = stablehlo.constant dense<6> : tensor<i32>
      %20 = stablehlo.compare LT, %iterArg_24, %c_31, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %20 : tensor<i1>
    } do {
      %20:6 = func.call @closed_call(%iterArg, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %iterArg_25, %iterArg_26) : (tensor<5x5xf32>, tensor<6x3x4xf32>, tensor<i32>, tensor<i32>, tensor<4x5xf32>, tensor<i32>, tensor<3x5xf32>) -> (tensor<i32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3x5xf32>)
      %21 = func.call @dynamic_update_index_in_dim(%iterArg_27, %20#2, %iterArg_24) : (tensor<6x3x5xf32>, tensor<3x5xf32>, tensor<i32>) -> tensor<6x3x5xf32>
      %22 = func.call @dynamic_update_index_in_dim_0(%iterArg_28, %20#3, %iterArg_24) : (tensor<6x3x4xf32>, tensor<3x4xf32>, tensor<i32>) -> tensor<6x3x4xf32>
      %23 = func.call @dynamic_update_index_in_dim(%iterArg_29, %20#4, %iterArg_24) : (tensor<6x3x5xf32>, tensor<3x5xf32>, tensor<i32>) -> tensor<6x3x5xf32>
      %24 = func.call @dynamic_update_index_in_dim(%iterArg_30, %20#5, %iterArg_24) : (tensor<6x3x5xf32>, tensor<3x5xf32>, tensor<i32>) -> tensor<6x3x5xf32>
      %c_31 = stablehlo.constant dense<1> : tensor<i32>
      %25 = stablehlo.add %iterArg_24, %c_31 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %25, %20#0, %20#1, %21, %22, %23, %24 : tensor<5x5xf32>, tensor<6x3x4xf32>, tensor<i32>, tensor<i32>, tensor<4x5xf32>, tensor<i32>, tensor<i32>, tensor<3x5xf32>, tensor<6x3x5xf32>, tensor<6x3x4xf32>, tensor<6x3x5xf32>, tensor<6x3x5xf32>
    }
    %11 = stablehlo.multiply %10#7, %10#7 : tensor<3x5xf32>
    %cst_14 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %13 = stablehlo.multiply %12, %10#7 : tensor<3x5xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%11 init: %cst_15) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %16 = stablehlo.multiply %15, %13 : tensor<3x5xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %c_19 = stablehlo.constant dense<0> : tensor<i32>
    %19:9 = stablehlo.while(%iterArg = %10#8, %iterArg_20 = %10#9, %iterArg_21 = %10#10, %iterArg_22 = %10#11, %iterArg_23 = %arg0, %iterArg_24 = %c_19, %iterArg_25 = %17, %iterArg_26 = %18, %iterArg_27 = %16) : tensor<6x3x5xf32>, tensor<6x3x4xf32>, tensor<6x3x5xf32>, tensor<6x3x5xf32>, tensor<5x5xf32>, tensor<i32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>
    cond {
      %c_28 = stablehlo.constant dense<6> : tensor<i32>
      %20 = stablehlo.compare LT, %iterArg_24, %c_28, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %20 : tensor<i1>
    } do {
      %c_28 = stablehlo.constant dense<6> : tensor<i32>
      %20 = stablehlo.subtract %c_28, %iterArg_24 : tensor<i32>
      %c_29 = stablehlo.constant dense<1> : tensor<i32>
      %21 = stablehlo.subtract %20, %c_29 : tensor<i32>
      %22 = func.call @dynamic_index_in_dim(%iterArg, %21) : (tensor<6x3x5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %23 = func.call @dynamic_index_in_dim_1(%iterArg_20, %21) : (tensor<6x3x4xf32>, tensor<i32>) -> tensor<3x4xf32>
      %24 = func.call @dynamic_index_in_dim(%iterArg_21, %21) : (tensor<6x3x5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %25 = func.call @dynamic_index_in_dim(%iterArg_22, %21) : (tensor<6x3x5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %26:3 = func.call @closed_call_2(%iterArg_23, %iterArg_25, %iterArg_26, %iterArg_27, %22, %23, %24, %25) : (tensor<5x5xf32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3x5xf32>) -> (tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>)
      %c_30 = stablehlo.constant dense<1> : tensor<i32>
      %27 = stablehlo.add %iterArg_24, %c_30 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_20, %iterArg_21, %iterArg_22, %iterArg_23, %27, %26#0, %26#1, %26#2 : tensor<6x3x5xf32>, tensor<6x3x4xf32>, tensor<6x3x5xf32>, tensor<6x3x5xf32>, tensor<5x5xf32>, tensor<i32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>
    }
    return %14, %19#6, %19#7, %19#8 : tensor<f32>, tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>
  }
  func.func private @closed_call(%arg0: tensor<5x5xf32>, %arg1: tensor<6x3x4xf32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<4x5xf32>, %arg5: tensor<i32>, %arg6: tensor<3x5xf32>) -> (tensor<i32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3x5xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg5, %c : tensor<i32>
    %1 = stablehlo.dot_general %arg6, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<5x5xf32>) -> tensor<3x5xf32>
    %2 = stablehlo.convert %arg5 : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %2, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<6> : tensor<i32>
    %4 = stablehlo.add %2, %c_1 : tensor<i32>
    %5 = stablehlo.select %3, %4, %2 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg1, %5, %arg2, %arg3, sizes = [1, 3, 4] : (tensor<6x3x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x4xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    %8 = stablehlo.dot_general %7, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
    %9 = stablehlo.add %1, %8 : tensor<3x5xf32>
    %10 = stablehlo.tanh %9 : tensor<3x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %12 = stablehlo.subtract %11, %10 : tensor<3x5xf32>
    return %0, %10, %arg6, %7, %10, %12 : tensor<i32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<3x5xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<6x3x5xf32>, %arg1: tensor<3x5xf32>, %arg2: tensor<i32>) -> tensor<6x3x5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x5xf32>) -> tensor<1x3x5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<6x3x5xf32>, tensor<1x3x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<6x3x5xf32>
    return %1 : tensor<6x3x5xf32>
  }
  func.func private @dynamic_update_index_in_dim_0(%arg0: tensor<6x3x4xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<i32>) -> tensor<6x3x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x4xf32>) -> tensor<1x3x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<6x3x4xf32>, tensor<1x3x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<6x3x4xf32>
    return %1 : tensor<6x3x4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<6x3x5xf32>, %arg1: tensor<i32>) -> tensor<3x5xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 5] : (tensor<6x3x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x5xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x5xf32>) -> tensor<3x5xf32>
    return %1 : tensor<3x5xf32>
  }
  func.func private @dynamic_index_in_dim_1(%arg0: tensor<6x3x4xf32>, %arg1: tensor<i32>) -> tensor<3x4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 3, 4] : (tensor<6x3x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x3x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3x4xf32>) -> tensor<3x4xf32>
    return %1 : tensor<3x4xf32>
  }
  func.func private @closed_call_2(%arg0: tensor<5x5xf32>, %arg1: tensor<5x5xf32>, %arg2: tensor<4x5xf32>, %arg3: tensor<3x5xf32>, %arg4: tensor<3x5xf32>, %arg5: tensor<3x4xf32>, %arg6: tensor<3x5xf32>, %arg7: tensor<3x5xf32>) -> (tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>) {
    %0 = stablehlo.multiply %arg3, %arg7 : tensor<3x5xf32>
    %1 = stablehlo.multiply %0, %arg6 : tensor<3x5xf32>
    %2 = stablehlo.add %0, %1 : tensor<3x5xf32>
    %3 = stablehlo.dot_general %2, %arg5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<5x4xf32>) -> tensor<4x5xf32>
    %5 = stablehlo.add %arg2, %4 : tensor<4x5xf32>
    %6 = stablehlo.dot_general %2, %arg4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<5x5xf32>
    %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %8 = stablehlo.add %arg1, %7 : tensor<5x5xf32>
    %9 = stablehlo.dot_general %2, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<5x5xf32>) -> tensor<3x5xf32>
    return %8, %5, %9 : tensor<5x5xf32>, tensor<4x5xf32>, tensor<3x5xf32>
  }
}
