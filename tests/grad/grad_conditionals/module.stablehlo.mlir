module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<i32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x5xf32> {jax.result_info = "result[1]"}, tensor<5xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare GT, %0, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
    %3:5 = "stablehlo.case"(%2) ({
      %cst_16 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %33 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
      %34 = stablehlo.multiply %arg0, %33 : tensor<4x5xf32>
      %35 = stablehlo.multiply %arg1, %arg1 : tensor<5xf32>
      %cst_17 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %37 = stablehlo.multiply %36, %arg1 : tensor<5xf32>
      %38 = stablehlo.broadcast_in_dim %35, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
      %39 = stablehlo.broadcast_in_dim %38, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
      %40 = stablehlo.add %34, %39 : tensor<4x5xf32>
      %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %41 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %42 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
      %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %43 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<1x5xf32>
      %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %44 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
      stablehlo.return %40, %37, %42, %43, %44 : tensor<4x5xf32>, tensor<5xf32>, tensor<4x5xf32>, tensor<1x5xf32>, tensor<4x5xf32>
    }, {
      %33 = stablehlo.sine %arg0 : tensor<4x5xf32>
      %34 = stablehlo.cosine %arg0 : tensor<4x5xf32>
      %35 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
      %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
      %37 = stablehlo.multiply %33, %36 : tensor<4x5xf32>
      %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %39 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
      %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %40 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<1x5xf32>
      %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %41 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
      stablehlo.return %37, %38, %34, %35, %33 : tensor<4x5xf32>, tensor<5xf32>, tensor<4x5xf32>, tensor<1x5xf32>, tensor<4x5xf32>
    }) : (tensor<i32>) -> (tensor<4x5xf32>, tensor<5xf32>, tensor<4x5xf32>, tensor<1x5xf32>, tensor<4x5xf32>)
    %4 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5xf32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<2> : tensor<i32>
    %5 = stablehlo.clamp %c, %arg2, %c_1 : tensor<i32>
    %6:4 = "stablehlo.case"(%5) ({
      %33 = stablehlo.tanh %4 : tensor<4xf32>
      %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %34 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %35 = stablehlo.subtract %34, %33 : tensor<4xf32>
      %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %37 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4xf32>
      stablehlo.return %33, %33, %35, %38 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }, {
      %33 = stablehlo.multiply %4, %4 : tensor<4xf32>
      %34 = stablehlo.multiply %33, %4 : tensor<4xf32>
      %35 = stablehlo.multiply %4, %4 : tensor<4xf32>
      %cst_16 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %37 = stablehlo.multiply %36, %35 : tensor<4xf32>
      %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %39 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %40 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4xf32>
      stablehlo.return %34, %37, %39, %40 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }, {
      %33 = stablehlo.negate %4 : tensor<4xf32>
      %34 = stablehlo.multiply %33, %4 : tensor<4xf32>
      %35 = stablehlo.exponential %34 : tensor<4xf32>
      %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %36 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %37 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %38 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4xf32>
      stablehlo.return %35, %4, %33, %35 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }) : (tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %7:2 = call @remainder(%c_2) : (tensor<i32>) -> (tensor<i32>, tensor<i1>)
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %12:9 = stablehlo.while(%iterArg = %7#0, %iterArg_16 = %7#1, %iterArg_17 = %c_8, %iterArg_18 = %c_3, %iterArg_19 = %arg1, %iterArg_20 = %8, %iterArg_21 = %9, %iterArg_22 = %10, %iterArg_23 = %11) : tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>, tensor<5xf32>, tensor<3xi32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
    cond {
      %c_24 = stablehlo.constant dense<3> : tensor<i32>
      %33 = stablehlo.compare LT, %iterArg_17, %c_24, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %33 : tensor<i1>
    } do {
      %33:6 = func.call @closed_call(%iterArg, %iterArg_16, %iterArg_18, %iterArg_19) : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<5xf32>) -> (tensor<i32>, tensor<5xf32>, tensor<i32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
      %34 = func.call @dynamic_update_index_in_dim(%iterArg_20, %33#2, %iterArg_17) : (tensor<3xi32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
      %35 = func.call @dynamic_update_index_in_dim_1(%iterArg_21, %33#3, %iterArg_17) : (tensor<3x5xf32>, tensor<5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %36 = func.call @dynamic_update_index_in_dim_1(%iterArg_22, %33#4, %iterArg_17) : (tensor<3x5xf32>, tensor<5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %37 = func.call @dynamic_update_index_in_dim_1(%iterArg_23, %33#5, %iterArg_17) : (tensor<3x5xf32>, tensor<5xf32>, tensor<i32>) -> tensor<3x5xf32>
      %c_24 = stablehlo.constant dense<1> : tensor<i32>
      %38 = stablehlo.add %iterArg_17, %c_24 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %38, %33#0, %33#1, %34, %35, %36, %37 : tensor<i32>, tensor<i1>, tensor<i32>, tensor<i32>, tensor<5xf32>, tensor<3xi32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>
    }
    %13 = stablehlo.multiply %3#0, %3#0 : tensor<4x5xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_9) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%6#0 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %16 = stablehlo.add %14, %15 : tensor<f32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%12#4 init: %cst_11) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %18 = stablehlo.add %16, %17 : tensor<f32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %22 = stablehlo.multiply %3#0, %21 : tensor<4x5xf32>
    %23 = stablehlo.multiply %21, %3#0 : tensor<4x5xf32>
    %24 = stablehlo.add %22, %23 : tensor<4x5xf32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %25:6 = stablehlo.while(%iterArg = %12#5, %iterArg_16 = %12#6, %iterArg_17 = %12#7, %iterArg_18 = %12#8, %iterArg_19 = %c_15, %iterArg_20 = %19) : tensor<3xi32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<i32>, tensor<5xf32>
    cond {
      %c_21 = stablehlo.constant dense<3> : tensor<i32>
      %33 = stablehlo.compare LT, %iterArg_19, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %33 : tensor<i1>
    } do {
      %c_21 = stablehlo.constant dense<3> : tensor<i32>
      %33 = stablehlo.subtract %c_21, %iterArg_19 : tensor<i32>
      %c_22 = stablehlo.constant dense<1> : tensor<i32>
      %34 = stablehlo.subtract %33, %c_22 : tensor<i32>
      %35 = func.call @dynamic_index_in_dim(%iterArg, %34) : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
      %36 = func.call @dynamic_index_in_dim_2(%iterArg_16, %34) : (tensor<3x5xf32>, tensor<i32>) -> tensor<5xf32>
      %37 = func.call @dynamic_index_in_dim_2(%iterArg_17, %34) : (tensor<3x5xf32>, tensor<i32>) -> tensor<5xf32>
      %38 = func.call @dynamic_index_in_dim_2(%iterArg_18, %34) : (tensor<3x5xf32>, tensor<i32>) -> tensor<5xf32>
      %39 = func.call @closed_call_3(%iterArg_20, %35, %36, %37, %38) : (tensor<5xf32>, tensor<i32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      %c_23 = stablehlo.constant dense<1> : tensor<i32>
      %40 = stablehlo.add %iterArg_19, %c_23 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_16, %iterArg_17, %iterArg_18, %40, %39 : tensor<3xi32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<i32>, tensor<5xf32>
    }
    %26 = "stablehlo.case"(%5) ({
      %33 = stablehlo.multiply %20, %6#2 : tensor<4xf32>
      %34 = stablehlo.multiply %33, %6#1 : tensor<4xf32>
      %35 = stablehlo.add %33, %34 : tensor<4xf32>
      stablehlo.return %35 : tensor<4xf32>
    }, {
      %33 = stablehlo.multiply %20, %6#1 : tensor<4xf32>
      stablehlo.return %33 : tensor<4xf32>
    }, {
      %33 = stablehlo.multiply %20, %6#3 : tensor<4xf32>
      %34 = stablehlo.multiply %6#2, %33 : tensor<4xf32>
      %35 = stablehlo.multiply %33, %6#1 : tensor<4xf32>
      %36 = stablehlo.negate %35 : tensor<4xf32>
      %37 = stablehlo.add %34, %36 : tensor<4xf32>
      stablehlo.return %37 : tensor<4xf32>
    }) : (tensor<i32>) -> tensor<4xf32>
    %27 = stablehlo.dot_general %26, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
    %28 = stablehlo.add %25#5, %27 : tensor<5xf32>
    %29 = stablehlo.dot_general %26, %arg1, contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<5xf32>) -> tensor<4x5xf32>
    %30:2 = "stablehlo.case"(%2) ({
      %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %33 = stablehlo.reduce(%24 init: %cst_16) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
      %34 = stablehlo.reshape %33 : (tensor<5xf32>) -> tensor<1x5xf32>
      %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %35 = stablehlo.reduce(%34 init: %cst_17) applies stablehlo.add across dimensions = [0] : (tensor<1x5xf32>, tensor<f32>) -> tensor<5xf32>
      %36 = stablehlo.multiply %35, %3#1 : tensor<5xf32>
      %cst_18 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %37 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
      %38 = stablehlo.multiply %24, %37 : tensor<4x5xf32>
      stablehlo.return %38, %36 : tensor<4x5xf32>, tensor<5xf32>
    }, {
      %33 = stablehlo.multiply %3#4, %24 : tensor<4x5xf32>
      %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %34 = stablehlo.reduce(%33 init: %cst_16) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
      %35 = stablehlo.reshape %34 : (tensor<5xf32>) -> tensor<1x5xf32>
      %36 = stablehlo.broadcast_in_dim %3#3, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
      %37 = stablehlo.multiply %24, %36 : tensor<4x5xf32>
      %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %38 = stablehlo.reduce(%35 init: %cst_17) applies stablehlo.add across dimensions = [0] : (tensor<1x5xf32>, tensor<f32>) -> tensor<5xf32>
      %39 = stablehlo.multiply %37, %3#2 : tensor<4x5xf32>
      stablehlo.return %39, %38 : tensor<4x5xf32>, tensor<5xf32>
    }) : (tensor<i32>) -> (tensor<4x5xf32>, tensor<5xf32>)
    %31 = stablehlo.add %29, %30#0 : tensor<4x5xf32>
    %32 = stablehlo.add %28, %30#1 : tensor<5xf32>
    return %18, %31, %32 : tensor<f32>, tensor<4x5xf32>, tensor<5xf32>
  }
  func.func private @remainder(%arg0: tensor<i32>) -> (tensor<i32>, tensor<i1>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where(%0, %c_0, %arg0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare LT, %1, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    return %1, %2 : tensor<i32>, tensor<i1>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<i1>, %arg2: tensor<i32>, %arg3: tensor<5xf32>) -> (tensor<i32>, tensor<5xf32>, tensor<i32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c : tensor<i32>
    %1 = call @remainder_0(%arg2, %arg0, %arg1) : (tensor<i32>, tensor<i32>, tensor<i1>) -> tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare EQ, %1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.convert %2 : (tensor<i1>) -> tensor<i32>
    %4:4 = "stablehlo.case"(%3) ({
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %6 = stablehlo.multiply %5, %arg3 : tensor<5xf32>
      %7 = stablehlo.multiply %6, %arg3 : tensor<5xf32>
      %8 = stablehlo.add %arg3, %7 : tensor<5xf32>
      %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      stablehlo.return %8, %arg3, %6, %9 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
    }, {
      %5 = stablehlo.cosine %arg3 : tensor<5xf32>
      %6 = stablehlo.sine %arg3 : tensor<5xf32>
      %7 = stablehlo.multiply %arg3, %5 : tensor<5xf32>
      stablehlo.return %7, %6, %5, %arg3 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
    }) : (tensor<i32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
    return %0, %4#0, %3, %4#1, %4#2, %4#3 : tensor<i32>, tensor<5xf32>, tensor<i32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  }
  func.func private @remainder_0(%arg0: tensor<i32>, %arg1: tensor<i32>, %arg2: tensor<i1>) -> tensor<i32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare NE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.compare LT, %0, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.compare NE, %2, %arg2, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %4 = stablehlo.and %3, %1 : tensor<i1>
    %5 = stablehlo.add %0, %arg1 : tensor<i32>
    %6 = stablehlo.select %4, %5, %0 : tensor<i1>, tensor<i32>
    return %6 : tensor<i32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<3xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<3xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<3xi32>, tensor<1xi32>, tensor<i32>) -> tensor<3xi32>
    return %1 : tensor<3xi32>
  }
  func.func private @dynamic_update_index_in_dim_1(%arg0: tensor<3x5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<i32>) -> tensor<3x5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<3x5xf32>, tensor<1x5xf32>, tensor<i32>, tensor<i32>) -> tensor<3x5xf32>
    return %1 : tensor<3x5xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<3xi32>, %arg1: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<3xi32>, tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.reshape %0 : (tensor<1xi32>) -> tensor<i32>
    return %1 : tensor<i32>
  }
  func.func private @dynamic_index_in_dim_2(%arg0: tensor<3x5xf32>, %arg1: tensor<i32>) -> tensor<5xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 5] : (tensor<3x5xf32>, tensor<i32>, tensor<i32>) -> tensor<1x5xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x5xf32>) -> tensor<5xf32>
    return %1 : tensor<5xf32>
  }
  func.func private @closed_call_3(%arg0: tensor<5xf32>, %arg1: tensor<i32>, %arg2: tensor<5xf32>, %arg3: tensor<5xf32>, %arg4: tensor<5xf32>) -> tensor<5xf32> {
    %0 = "stablehlo.case"(%arg1) ({
      %1 = stablehlo.multiply %arg3, %arg0 : tensor<5xf32>
      %2 = stablehlo.add %arg0, %1 : tensor<5xf32>
      %3 = stablehlo.multiply %arg0, %arg2 : tensor<5xf32>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %5 = stablehlo.multiply %4, %3 : tensor<5xf32>
      %6 = stablehlo.add %2, %5 : tensor<5xf32>
      stablehlo.return %6 : tensor<5xf32>
    }, {
      %1 = stablehlo.multiply %arg4, %arg0 : tensor<5xf32>
      %2 = stablehlo.multiply %arg0, %arg3 : tensor<5xf32>
      %3 = stablehlo.negate %1 : tensor<5xf32>
      %4 = stablehlo.multiply %3, %arg2 : tensor<5xf32>
      %5 = stablehlo.add %2, %4 : tensor<5xf32>
      stablehlo.return %5 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    return %0 : tensor<5xf32>
  }
}
