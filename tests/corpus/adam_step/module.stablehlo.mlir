module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<10xf32>, %arg2: tensor<16x32xf32>, %arg3: tensor<32x10xf32>, %arg4: tensor<32xf32>, %arg5: tensor<10xf32>, %arg6: tensor<16x32xf32>, %arg7: tensor<32x10xf32>, %arg8: tensor<32xf32>, %arg9: tensor<10xf32>, %arg10: tensor<16x32xf32>, %arg11: tensor<32x10xf32>, %arg12: tensor<i32>, %arg13: tensor<8x16xf32>, %arg14: tensor<8xi32>) -> (tensor<32xf32> {jax.result_info = "result[0]['b1']"}, tensor<10xf32> {jax.result_info = "result[0]['b2']"}, tensor<16x32xf32> {jax.result_info = "result[0]['w1']"}, tensor<32x10xf32> {jax.result_info = "result[0]['w2']"}, tensor<32xf32> {jax.result_info = "result[1]['b1']"}, tensor<10xf32> {jax.result_info = "result[1]['b2']"}, tensor<16x32xf32> {jax.result_info = "result[1]['w1']"}, tensor<32x10xf32> {jax.result_info = "result[1]['w2']"}, tensor<32xf32> {jax.result_info = "result[2]['b1']"}, tensor<10xf32> {jax.result_info = "result[2]['b2']"}, tensor<16x32xf32> {jax.result_info = "result[2]['w1']"}, tensor<32x10xf32> {jax.result_info = "result[2]['w2']"}, tensor<f32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.dot_general %arg13, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x32xf32>
    %4 = call @relu(%3) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %8 = stablehlo.dot_general %4, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %9 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.add %8, %10 : tensor<8x10xf32>
    %12:3 = call @log_softmax(%11) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>)
    %13 = call @_one_hot(%arg14) : (tensor<8xi32>) -> tensor<8x10xf32>
    %14 = stablehlo.multiply %13, %12#0 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.reduce(%14 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %17 = stablehlo.divide %16, %cst_3 : tensor<f32>
    %18 = stablehlo.negate %17 : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.negate %cst_4 : tensor<f32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %20 = stablehlo.divide %19, %cst_5 : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %23 = stablehlo.multiply %13, %22 : tensor<8x10xf32>
    %24 = call @log_softmax_0(%12#1, %12#2, %23) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<8x10xf32>, tensor<f32>) -> tensor<10xf32>
    %26 = stablehlo.reshape %25 : (tensor<10xf32>) -> tensor<1x10xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.reduce(%26 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %28 = stablehlo.dot_general %24, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x32xf32>) -> tensor<10x32xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0] : (tensor<10x32xf32>) -> tensor<32x10xf32>
    %30 = stablehlo.dot_general %24, %arg3, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<32x10xf32>) -> tensor<8x32xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %32 = stablehlo.select %6, %30, %31 : tensor<8x32xi1>, tensor<8x32xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.reduce(%32 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %34 = stablehlo.reshape %33 : (tensor<32xf32>) -> tensor<1x32xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%34 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %36 = stablehlo.dot_general %32, %arg13, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
    %37 = stablehlo.transpose %36, dims = [1, 0] : (tensor<32x16xf32>) -> tensor<16x32xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %38 = stablehlo.add %arg12, %c : tensor<i32>
    %39 = stablehlo.convert %38 : (tensor<i32>) -> tensor<f32>
    %cst_11 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %41 = stablehlo.multiply %40, %arg4 : tensor<32xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %43 = stablehlo.multiply %42, %35 : tensor<32xf32>
    %44 = stablehlo.add %41, %43 : tensor<32xf32>
    %cst_13 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %46 = stablehlo.multiply %45, %arg5 : tensor<10xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %48 = stablehlo.multiply %47, %27 : tensor<10xf32>
    %49 = stablehlo.add %46, %48 : tensor<10xf32>
    %cst_15 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %51 = stablehlo.multiply %50, %arg6 : tensor<16x32xf32>
    %cst_16 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %53 = stablehlo.multiply %52, %37 : tensor<16x32xf32>
    %54 = stablehlo.add %51, %53 : tensor<16x32xf32>
    %cst_17 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %56 = stablehlo.multiply %55, %arg7 : tensor<32x10xf32>
    %cst_18 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %58 = stablehlo.multiply %57, %29 : tensor<32x10xf32>
    %59 = stablehlo.add %56, %58 : tensor<32x10xf32>
    %cst_19 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %61 = stablehlo.multiply %60, %arg8 : tensor<32xf32>
    %cst_20 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %63 = stablehlo.multiply %62, %35 : tensor<32xf32>
    %64 = stablehlo.multiply %63, %35 : tensor<32xf32>
    %65 = stablehlo.add %61, %64 : tensor<32xf32>
    %cst_21 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %66 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %67 = stablehlo.multiply %66, %arg9 : tensor<10xf32>
    %cst_22 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %69 = stablehlo.multiply %68, %27 : tensor<10xf32>
    %70 = stablehlo.multiply %69, %27 : tensor<10xf32>
    %71 = stablehlo.add %67, %70 : tensor<10xf32>
    %cst_23 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %73 = stablehlo.multiply %72, %arg10 : tensor<16x32xf32>
    %cst_24 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %75 = stablehlo.multiply %74, %37 : tensor<16x32xf32>
    %76 = stablehlo.multiply %75, %37 : tensor<16x32xf32>
    %77 = stablehlo.add %73, %76 : tensor<16x32xf32>
    %cst_25 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %78 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %79 = stablehlo.multiply %78, %arg11 : tensor<32x10xf32>
    %cst_26 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %81 = stablehlo.multiply %80, %29 : tensor<32x10xf32>
    %82 = stablehlo.multiply %81, %29 : tensor<32x10xf32>
    %83 = stablehlo.add %79, %82 : tensor<32x10xf32>
    %cst_27 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %84 = stablehlo.power %cst_27, %39 : tensor<f32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %85 = stablehlo.subtract %cst_28, %84 : tensor<f32>
    %cst_29 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %86 = stablehlo.power %cst_29, %39 : tensor<f32>
    %cst_30 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %87 = stablehlo.subtract %cst_30, %86 : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %85, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %89 = stablehlo.divide %44, %88 : tensor<32xf32>
    %cst_31 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %91 = stablehlo.multiply %90, %89 : tensor<32xf32>
    %92 = stablehlo.broadcast_in_dim %87, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %93 = stablehlo.divide %65, %92 : tensor<32xf32>
    %94 = stablehlo.sqrt %93 : tensor<32xf32>
    %cst_32 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %96 = stablehlo.add %94, %95 : tensor<32xf32>
    %97 = stablehlo.divide %91, %96 : tensor<32xf32>
    %98 = stablehlo.subtract %arg0, %97 : tensor<32xf32>
    %99 = stablehlo.broadcast_in_dim %85, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %100 = stablehlo.divide %49, %99 : tensor<10xf32>
    %cst_33 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %102 = stablehlo.multiply %101, %100 : tensor<10xf32>
    %103 = stablehlo.broadcast_in_dim %87, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %104 = stablehlo.divide %71, %103 : tensor<10xf32>
    %105 = stablehlo.sqrt %104 : tensor<10xf32>
    %cst_34 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %107 = stablehlo.add %105, %106 : tensor<10xf32>
    %108 = stablehlo.divide %102, %107 : tensor<10xf32>
    %109 = stablehlo.subtract %arg1, %108 : tensor<10xf32>
    %110 = stablehlo.broadcast_in_dim %85, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %111 = stablehlo.divide %54, %110 : tensor<16x32xf32>
    %cst_35 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %113 = stablehlo.multiply %112, %111 : tensor<16x32xf32>
    %114 = stablehlo.broadcast_in_dim %87, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %115 = stablehlo.divide %77, %114 : tensor<16x32xf32>
    %116 = stablehlo.sqrt %115 : tensor<16x32xf32>
    %cst_36 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<16x32xf32>
    %118 = stablehlo.add %116, %117 : tensor<16x32xf32>
    %119 = stablehlo.divide %113, %118 : tensor<16x32xf32>
    %120 = stablehlo.subtract %arg2, %119 : tensor<16x32xf32>
    %121 = stablehlo.broadcast_in_dim %85, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %122 = stablehlo.divide %59, %121 : tensor<32x10xf32>
    %cst_37 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %124 = stablehlo.multiply %123, %122 : tensor<32x10xf32>
    %125 = stablehlo.broadcast_in_dim %87, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %126 = stablehlo.divide %83, %125 : tensor<32x10xf32>
    %127 = stablehlo.sqrt %126 : tensor<32x10xf32>
    %cst_38 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<32x10xf32>
    %129 = stablehlo.add %127, %128 : tensor<32x10xf32>
    %130 = stablehlo.divide %124, %129 : tensor<32x10xf32>
    %131 = stablehlo.subtract %arg3, %130 : tensor<32x10xf32>
    return %98, %109, %120, %131, %44, %49, %54, %59, %65, %71, %77, %83, %18 : tensor<32xf32>, tensor<10xf32>, tensor<16x32xf32>, tensor<32x10xf32>, tensor<32xf32>, tensor<10xf32>, tensor<16x32xf32>, tensor<32x10xf32>, tensor<32xf32>, tensor<10xf32>, tensor<16x32xf32>, tensor<32x10xf32>, tensor<f32>
  }
  func.func private @relu(%arg0: tensor<8x32xf32>) -> tensor<8x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x32xf32>
    return %1 : tensor<8x32xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11, %6, %8 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @_one_hot(%arg0: tensor<8xi32>) -> tensor<8x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x10xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x10xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x10xi32>) -> tensor<8x10xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x10xi32>, tensor<8x10xi32>) -> tensor<8x10xi1>
    %5 = stablehlo.convert %4 : (tensor<8x10xi1>) -> tensor<8x10xf32>
    return %5 : tensor<8x10xf32>
  }
  func.func private @log_softmax_0(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
