module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<5x4xf32>, %arg2: tensor<4xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x4xf32> {jax.result_info = "result[1]"}, tensor<5x4xf32> {jax.result_info = "result[2]"}, tensor<4xf32> {jax.result_info = "result[3]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:8 = stablehlo.while(%iterArg = %arg1, %iterArg_34 = %arg0, %iterArg_35 = %c, %iterArg_36 = %arg2, %iterArg_37 = %0, %iterArg_38 = %1, %iterArg_39 = %2, %iterArg_40 = %3) : tensor<5x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>
    cond {
      %c_41 = stablehlo.constant dense<5> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_35, %c_41, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %35 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_35) : (tensor<5x4xf32>, tensor<i32>) -> tensor<4xf32>
      %36:5 = func.call @closed_call(%iterArg_34, %iterArg_36, %35) : (tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      %37 = func.call @dynamic_update_index_in_dim(%iterArg_37, %36#1, %iterArg_35) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %38 = func.call @dynamic_update_index_in_dim(%iterArg_38, %36#2, %iterArg_35) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %39 = func.call @dynamic_update_index_in_dim(%iterArg_39, %36#3, %iterArg_35) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %40 = func.call @dynamic_update_index_in_dim(%iterArg_40, %36#4, %iterArg_35) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %c_41 = stablehlo.constant dense<1> : tensor<i32>
      %41 = stablehlo.add %iterArg_35, %c_41 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_34, %41, %36#0, %37, %38, %39, %40 : tensor<5x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>
    }
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %c_3, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %c_6 = stablehlo.constant dense<4> : tensor<i32>
    %6 = stablehlo.add %c_5, %c_6 : tensor<i32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.select %5, %6, %c_7 : tensor<i1>, tensor<i32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %c_8, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %c_11 = stablehlo.constant dense<4> : tensor<i32>
    %9 = stablehlo.add %c_10, %c_11 : tensor<i32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.select %8, %9, %c_12 : tensor<i1>, tensor<i32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %14:7 = stablehlo.while(%iterArg = %arg0, %iterArg_34 = %10, %iterArg_35 = %c_17, %iterArg_36 = %c_13, %iterArg_37 = %11, %iterArg_38 = %12, %iterArg_39 = %13) : tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<4x4xf32>, tensor<4x4xf32>
    cond {
      %c_40 = stablehlo.constant dense<4> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_35, %c_40, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %35:4 = func.call @closed_call_0(%iterArg, %iterArg_34, %iterArg_36) : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>)
      %36 = func.call @dynamic_update_index_in_dim_1(%iterArg_37, %35#1, %iterArg_35) : (tensor<4xi32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
      %37 = func.call @dynamic_update_index_in_dim_2(%iterArg_38, %35#2, %iterArg_35) : (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %38 = func.call @dynamic_update_index_in_dim_2(%iterArg_39, %35#3, %iterArg_35) : (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %c_40 = stablehlo.constant dense<1> : tensor<i32>
      %39 = stablehlo.add %iterArg_35, %c_40 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_34, %39, %35#0, %36, %37, %38 : tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<4x4xf32>, tensor<4x4xf32>
    }
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %c_19 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<3x4x4xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<3x4x4xf32>
    %c_22 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %c_23 = stablehlo.constant dense<0> : tensor<i32>
    %19:9 = stablehlo.while(%iterArg = %7, %iterArg_34 = %14#6, %iterArg_35 = %c_23, %iterArg_36 = %c_18, %iterArg_37 = %4#4, %iterArg_38 = %15, %iterArg_39 = %16, %iterArg_40 = %17, %iterArg_41 = %18) : tensor<i32>, tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<5x4xf32>, tensor<3xi32>, tensor<3x4x4xf32>, tensor<3x4x4xf32>, tensor<3x1xi32>
    cond {
      %c_42 = stablehlo.constant dense<3> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_35, %c_42, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %35:6 = func.call @closed_call_3(%iterArg, %iterArg_34, %iterArg_36, %iterArg_37) : (tensor<i32>, tensor<4x4xf32>, tensor<i32>, tensor<5x4xf32>) -> (tensor<i32>, tensor<5x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<1xi32>)
      %36 = func.call @dynamic_update_index_in_dim_6(%iterArg_38, %35#2, %iterArg_35) : (tensor<3xi32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
      %37 = func.call @dynamic_update_index_in_dim_7(%iterArg_39, %35#3, %iterArg_35) : (tensor<3x4x4xf32>, tensor<4x4xf32>, tensor<i32>) -> tensor<3x4x4xf32>
      %38 = func.call @dynamic_update_index_in_dim_7(%iterArg_40, %35#4, %iterArg_35) : (tensor<3x4x4xf32>, tensor<4x4xf32>, tensor<i32>) -> tensor<3x4x4xf32>
      %39 = func.call @dynamic_update_index_in_dim_8(%iterArg_41, %35#5, %iterArg_35) : (tensor<3x1xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3x1xi32>
      %c_42 = stablehlo.constant dense<1> : tensor<i32>
      %40 = stablehlo.add %iterArg_35, %c_42 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_34, %40, %35#0, %35#1, %36, %37, %38, %39 : tensor<i32>, tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<5x4xf32>, tensor<3xi32>, tensor<3x4x4xf32>, tensor<3x4x4xf32>, tensor<3x1xi32>
    }
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19#4 init: %cst_24) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<f32>
    %21 = stablehlo.multiply %4#3, %4#3 : tensor<4xf32>
    %cst_25 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %23 = stablehlo.multiply %22, %4#3 : tensor<4xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%21 init: %cst_26) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %25 = stablehlo.add %20, %24 : tensor<f32>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %27 = stablehlo.multiply %26, %23 : tensor<4xf32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %c_30 = stablehlo.constant dense<0> : tensor<i32>
    %30:11 = stablehlo.while(%iterArg = %19#5, %iterArg_34 = %19#6, %iterArg_35 = %19#7, %iterArg_36 = %19#8, %iterArg_37 = %7, %iterArg_38 = %10, %iterArg_39 = %14#4, %iterArg_40 = %14#5, %iterArg_41 = %c_30, %iterArg_42 = %29, %iterArg_43 = %28) : tensor<3xi32>, tensor<3x4x4xf32>, tensor<3x4x4xf32>, tensor<3x1xi32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<5x4xf32>
    cond {
      %c_44 = stablehlo.constant dense<3> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_41, %c_44, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %c_44 = stablehlo.constant dense<3> : tensor<i32>
      %35 = stablehlo.subtract %c_44, %iterArg_41 : tensor<i32>
      %c_45 = stablehlo.constant dense<1> : tensor<i32>
      %36 = stablehlo.subtract %35, %c_45 : tensor<i32>
      %37 = func.call @dynamic_index_in_dim_9(%iterArg, %36) : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
      %38 = func.call @dynamic_index_in_dim_10(%iterArg_34, %36) : (tensor<3x4x4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %39 = func.call @dynamic_index_in_dim_10(%iterArg_35, %36) : (tensor<3x4x4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %40 = func.call @dynamic_index_in_dim_11(%iterArg_36, %36) : (tensor<3x1xi32>, tensor<i32>) -> tensor<1xi32>
      %41:2 = func.call @closed_call_12(%iterArg_37, %iterArg_38, %iterArg_39, %iterArg_40, %iterArg_42, %iterArg_43, %37, %38, %39, %40) : (tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<5x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<1xi32>) -> (tensor<4x4xf32>, tensor<5x4xf32>)
      %c_46 = stablehlo.constant dense<1> : tensor<i32>
      %42 = stablehlo.add %iterArg_41, %c_46 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_34, %iterArg_35, %iterArg_36, %iterArg_37, %iterArg_38, %iterArg_39, %iterArg_40, %42, %41#0, %41#1 : tensor<3xi32>, tensor<3x4x4xf32>, tensor<3x4x4xf32>, tensor<3x1xi32>, tensor<i32>, tensor<i32>, tensor<4xi32>, tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<5x4xf32>
    }
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %c_33 = stablehlo.constant dense<0> : tensor<i32>
    %33:9 = stablehlo.while(%iterArg = %30#10, %iterArg_34 = %4#5, %iterArg_35 = %4#6, %iterArg_36 = %4#7, %iterArg_37 = %arg0, %iterArg_38 = %c_33, %iterArg_39 = %31, %iterArg_40 = %27, %iterArg_41 = %32) : tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<4xf32>, tensor<5x4xf32>
    cond {
      %c_42 = stablehlo.constant dense<5> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg_38, %c_42, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %35 : tensor<i1>
    } do {
      %c_42 = stablehlo.constant dense<5> : tensor<i32>
      %35 = stablehlo.subtract %c_42, %iterArg_38 : tensor<i32>
      %c_43 = stablehlo.constant dense<1> : tensor<i32>
      %36 = stablehlo.subtract %35, %c_43 : tensor<i32>
      %37 = func.call @dynamic_index_in_dim(%iterArg, %36) : (tensor<5x4xf32>, tensor<i32>) -> tensor<4xf32>
      %38 = func.call @dynamic_index_in_dim(%iterArg_34, %36) : (tensor<5x4xf32>, tensor<i32>) -> tensor<4xf32>
      %39 = func.call @dynamic_index_in_dim(%iterArg_35, %36) : (tensor<5x4xf32>, tensor<i32>) -> tensor<4xf32>
      %40 = func.call @dynamic_index_in_dim(%iterArg_36, %36) : (tensor<5x4xf32>, tensor<i32>) -> tensor<4xf32>
      %41:3 = func.call @closed_call_15(%iterArg_37, %iterArg_39, %iterArg_40, %37, %38, %39, %40) : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>)
      %42 = func.call @dynamic_update_index_in_dim(%iterArg_41, %41#2, %36) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %c_44 = stablehlo.constant dense<1> : tensor<i32>
      %43 = stablehlo.add %iterArg_38, %c_44 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_34, %iterArg_35, %iterArg_36, %iterArg_37, %43, %41#0, %41#1, %42 : tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<5x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<4xf32>, tensor<5x4xf32>
    }
    %34 = stablehlo.add %30#9, %33#6 : tensor<4x4xf32>
    return %25, %34, %33#8, %33#7 : tensor<f32>, tensor<4x4xf32>, tensor<5x4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @closed_call(%arg0: tensor<4x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %1 = stablehlo.sine %0 : tensor<4xf32>
    %2 = stablehlo.cosine %0 : tensor<4xf32>
    %3 = stablehlo.add %1, %arg2 : tensor<4xf32>
    %4 = stablehlo.multiply %3, %3 : tensor<4xf32>
    return %3, %4, %arg1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> tensor<5x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<5x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
    return %1 : tensor<5x4xf32>
  }
  func.func private @closed_call_0(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c : tensor<i32>
    %1 = stablehlo.convert %arg2 : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<4> : tensor<i32>
    %3 = stablehlo.add %1, %c_1 : tensor<i32>
    %4 = stablehlo.select %2, %3, %1 : tensor<i1>, tensor<i32>
    %5 = stablehlo.dynamic_slice %arg0, %4, %arg1, sizes = [1, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %0, %4, %6, %6 : tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim_1(%arg0: tensor<4xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<4xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<4xi32>, tensor<1xi32>, tensor<i32>) -> tensor<4xi32>
    return %1 : tensor<4xi32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<4x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> tensor<4x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
  func.func private @closed_call_3(%arg0: tensor<i32>, %arg1: tensor<4x4xf32>, %arg2: tensor<i32>, %arg3: tensor<5x4xf32>) -> (tensor<i32>, tensor<5x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<1xi32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c : tensor<i32>
    %1 = stablehlo.convert %arg2 : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare LT, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %3 = stablehlo.add %1, %c_1 : tensor<i32>
    %4 = stablehlo.select %2, %3, %1 : tensor<i1>, tensor<i32>
    %5 = stablehlo.dynamic_slice %arg3, %4, %arg0, sizes = [1, 4] : (tensor<5x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x4xf32>) -> tensor<4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9:5 = stablehlo.while(%iterArg = %arg1, %iterArg_6 = %c_3, %iterArg_7 = %6, %iterArg_8 = %7, %iterArg_9 = %8) : tensor<4x4xf32>, tensor<i32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
    cond {
      %c_10 = stablehlo.constant dense<4> : tensor<i32>
      %16 = stablehlo.compare LT, %iterArg_6, %c_10, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    } do {
      %16 = func.call @dynamic_index_in_dim_4(%iterArg, %iterArg_6) : (tensor<4x4xf32>, tensor<i32>) -> tensor<4xf32>
      %17:3 = func.call @closed_call_5(%iterArg_7, %16) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      %18 = func.call @dynamic_update_index_in_dim_2(%iterArg_8, %17#1, %iterArg_6) : (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %19 = func.call @dynamic_update_index_in_dim_2(%iterArg_9, %17#2, %iterArg_6) : (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<4x4xf32>
      %c_10 = stablehlo.constant dense<1> : tensor<i32>
      %20 = stablehlo.add %iterArg_6, %c_10 : tensor<i32>
      stablehlo.return %iterArg, %20, %17#0, %18, %19 : tensor<4x4xf32>, tensor<i32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
    }
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.compare LT, %arg2, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_5 = stablehlo.constant dense<5> : tensor<i32>
    %11 = stablehlo.add %arg2, %c_5 : tensor<i32>
    %12 = stablehlo.select %10, %11, %arg2 : tensor<i1>, tensor<i32>
    %13 = stablehlo.convert %12 : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %15 = "stablehlo.scatter"(%arg3, %14, %9#2) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      stablehlo.return %arg5 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<1xi32>, tensor<4xf32>) -> tensor<5x4xf32>
    return %0, %15, %4, %9#3, %9#4, %14 : tensor<i32>, tensor<5x4xf32>, tensor<i32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<1xi32>
  }
  func.func private @dynamic_index_in_dim_4(%arg0: tensor<4x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @closed_call_5(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %cst = stablehlo.constant dense<0.899999976> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<4xf32>
    %2 = stablehlo.cosine %arg0 : tensor<4xf32>
    %3 = stablehlo.sine %arg0 : tensor<4xf32>
    %4 = stablehlo.multiply %2, %arg1 : tensor<4xf32>
    %5 = stablehlo.add %1, %4 : tensor<4xf32>
    return %5, %3, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim_6(%arg0: tensor<3xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<3xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3xi32>
    return %1 : tensor<3xi32>
  }
  func.func private @dynamic_update_index_in_dim_7(%arg0: tensor<3x4x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<i32>) -> tensor<3x4x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x4xf32>) -> tensor<1x4x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<3x4x4xf32>, tensor<1x4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x4x4xf32>
    return %1 : tensor<3x4x4xf32>
  }
  func.func private @dynamic_update_index_in_dim_8(%arg0: tensor<3x1xi32>, %arg1: tensor<1xi32>, %arg2: tensor<i32>) -> tensor<3x1xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<3x1xi32>, tensor<1x1xi32>, tensor<i32>, tensor<i32>) -> tensor<3x1xi32>
    return %1 : tensor<3x1xi32>
  }
  func.func private @dynamic_index_in_dim_9(%arg0: tensor<3xi32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.reshape %0 : (tensor<1xi32>) -> tensor<i32>
    return %1 : tensor<i32>
  }
  func.func private @dynamic_index_in_dim_10(%arg0: tensor<3x4x4xf32>, %arg1: tensor<i32>) -> tensor<4x4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 4] : (tensor<3x4x4xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x4xf32>) -> tensor<4x4xf32>
    return %1 : tensor<4x4xf32>
  }
  func.func private @dynamic_index_in_dim_11(%arg0: tensor<3x1xi32>, %arg1: tensor<i32>) -> tensor<1xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 1] : (tensor<3x1xi32>, tensor<i32>, tensor<i32>) -> tensor<1x1xi32>
    %1 = stablehlo.reshape %0 : (tensor<1x1xi32>) -> tensor<1xi32>
    return %1 : tensor<1xi32>
  }
  func.func private @closed_call_12(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<4xi32>, %arg3: tensor<4x4xf32>, %arg4: tensor<4x4xf32>, %arg5: tensor<5x4xf32>, %arg6: tensor<i32>, %arg7: tensor<4x4xf32>, %arg8: tensor<4x4xf32>, %arg9: tensor<1xi32>) -> (tensor<4x4xf32>, tensor<5x4xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = "stablehlo.scatter"(%arg5, %arg9, %0) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      stablehlo.return %arg11 : tensor<f32>
    }) : (tensor<5x4xf32>, tensor<1xi32>, tensor<4xf32>) -> tensor<5x4xf32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.compare GE, %arg9, %2, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %4 = stablehlo.compare LE, %arg9, %c, SIGNED : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    %5 = stablehlo.and %3, %4 : tensor<1xi1>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %6 = stablehlo.reduce(%5 init: %c_1) applies stablehlo.and across dimensions = [0] : (tensor<1xi1>, tensor<i1>) -> tensor<i1>
    %7 = "stablehlo.gather"(%arg5, %arg9) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0]>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<5x4xf32>, tensor<1xi32>) -> tensor<4xf32>
    %8 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<4xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %10 = stablehlo.select %8, %7, %9 : tensor<4xi1>, tensor<4xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %12:8 = stablehlo.while(%iterArg = %arg7, %iterArg_6 = %arg2, %iterArg_7 = %arg3, %iterArg_8 = %arg8, %iterArg_9 = %arg1, %iterArg_10 = %c_4, %iterArg_11 = %11, %iterArg_12 = %10) : tensor<4x4xf32>, tensor<4xi32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<4xf32>
    cond {
      %c_13 = stablehlo.constant dense<4> : tensor<i32>
      %18 = stablehlo.compare LT, %iterArg_10, %c_13, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %18 : tensor<i1>
    } do {
      %c_13 = stablehlo.constant dense<4> : tensor<i32>
      %18 = stablehlo.subtract %c_13, %iterArg_10 : tensor<i32>
      %c_14 = stablehlo.constant dense<1> : tensor<i32>
      %19 = stablehlo.subtract %18, %c_14 : tensor<i32>
      %20 = func.call @dynamic_index_in_dim_4(%iterArg, %19) : (tensor<4x4xf32>, tensor<i32>) -> tensor<4xf32>
      %21 = func.call @dynamic_index_in_dim_13(%iterArg_6, %19) : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
      %22 = func.call @dynamic_index_in_dim_4(%iterArg_7, %19) : (tensor<4x4xf32>, tensor<i32>) -> tensor<4xf32>
      %23 = func.call @dynamic_index_in_dim_4(%iterArg_8, %19) : (tensor<4x4xf32>, tensor<i32>) -> tensor<4xf32>
      %24:2 = func.call @closed_call_14(%iterArg_9, %iterArg_11, %iterArg_12, %20, %21, %22, %23) : (tensor<i32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)
      %c_15 = stablehlo.constant dense<1> : tensor<i32>
      %25 = stablehlo.add %iterArg_10, %c_15 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %25, %24#0, %24#1 : tensor<4x4xf32>, tensor<4xi32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<i32>, tensor<i32>, tensor<4x4xf32>, tensor<4xf32>
    }
    %13 = stablehlo.add %arg4, %12#6 : tensor<4x4xf32>
    %14 = stablehlo.broadcast_in_dim %12#7, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %16 = stablehlo.dynamic_update_slice %15, %14, %arg6, %arg0 : (tensor<5x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
    %17 = stablehlo.add %1, %16 : tensor<5x4xf32>
    return %13, %17 : tensor<4x4xf32>, tensor<5x4xf32>
  }
  func.func private @dynamic_index_in_dim_13(%arg0: tensor<4xi32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<4xi32>, tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.reshape %0 : (tensor<1xi32>) -> tensor<i32>
    return %1 : tensor<i32>
  }
  func.func private @closed_call_14(%arg0: tensor<i32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<i32>, %arg5: tensor<4xf32>, %arg6: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>) {
    %0 = stablehlo.multiply %arg6, %arg2 : tensor<4xf32>
    %1 = stablehlo.multiply %arg2, %arg5 : tensor<4xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %4 = stablehlo.dynamic_update_slice %3, %2, %arg4, %arg0 : (tensor<4x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<4x4xf32>
    %5 = stablehlo.add %arg1, %4 : tensor<4x4xf32>
    %6 = stablehlo.negate %1 : tensor<4xf32>
    %7 = stablehlo.multiply %6, %arg3 : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %9 = stablehlo.multiply %arg2, %8 : tensor<4xf32>
    %10 = stablehlo.add %7, %9 : tensor<4xf32>
    return %5, %10 : tensor<4x4xf32>, tensor<4xf32>
  }
  func.func private @closed_call_15(%arg0: tensor<4x4xf32>, %arg1: tensor<4x4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>, %arg5: tensor<4xf32>, %arg6: tensor<4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.multiply %arg6, %arg3 : tensor<4xf32>
    %1 = stablehlo.add %arg2, %0 : tensor<4xf32>
    %2 = stablehlo.multiply %arg3, %arg6 : tensor<4xf32>
    %3 = stablehlo.add %1, %2 : tensor<4xf32>
    %4 = stablehlo.multiply %3, %arg5 : tensor<4xf32>
    %5 = stablehlo.dot_general %4, %arg4, contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    %6 = stablehlo.transpose %5, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %7 = stablehlo.add %arg1, %6 : tensor<4x4xf32>
    %8 = stablehlo.dot_general %4, %arg0, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    return %7, %8, %3 : tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
