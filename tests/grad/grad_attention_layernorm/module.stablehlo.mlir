module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<2x6x8xf32>, %arg6: tensor<2x6x8xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<8x8xf32> {jax.result_info = "result[1]"}, tensor<8x8xf32> {jax.result_info = "result[2]"}, tensor<8x8xf32> {jax.result_info = "result[3]"}, tensor<8xf32> {jax.result_info = "result[4]"}, tensor<8xf32> {jax.result_info = "result[5]"}, tensor<2x6x8xf32> {jax.result_info = "result[6]"}) {
    %0 = stablehlo.dot_general %arg5, %arg0, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
    %1 = stablehlo.dot_general %arg5, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
    %2 = stablehlo.dot_general %arg5, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
    %3 = stablehlo.dot_general %0, %1, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<2x6x6xf32>
    %cst = stablehlo.constant dense<2.82842708> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x6x6xf32>
    %5 = stablehlo.divide %3, %4 : tensor<2x6x6xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_0) applies stablehlo.maximum across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %7 = stablehlo.reshape %6 : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %9 = stablehlo.compare EQ, %5, %8, FLOAT : (tensor<2x6x6xf32>, tensor<2x6x6xf32>) -> tensor<2x6x6xi1>
    %10 = stablehlo.convert %9 : (tensor<2x6x6xi1>) -> tensor<2x6x6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %13 = stablehlo.maximum %12, %6 : tensor<2x6xf32>
    %14 = stablehlo.compare EQ, %6, %13, FLOAT : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %17 = stablehlo.select %14, %15, %16 : tensor<2x6xi1>, tensor<2x6xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %19 = stablehlo.compare EQ, %18, %13, FLOAT : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xi1>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %22 = stablehlo.select %19, %20, %21 : tensor<2x6xi1>, tensor<2x6xf32>
    %23 = stablehlo.divide %17, %22 : tensor<2x6xf32>
    %24 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %26 = stablehlo.subtract %5, %25 : tensor<2x6x6xf32>
    %27 = stablehlo.exponential %26 : tensor<2x6x6xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.reduce(%27 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %31 = stablehlo.divide %27, %30 : tensor<2x6x6xf32>
    %32 = stablehlo.multiply %29, %29 : tensor<2x6x1xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %34 = stablehlo.divide %33, %32 : tensor<2x6x1xf32>
    %35 = stablehlo.dot_general %31, %2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xf32>, tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
    %36 = stablehlo.add %35, %arg5 : tensor<2x6x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %37 = stablehlo.reduce(%36 init: %cst_10) applies stablehlo.add across dimensions = [2] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<2x6xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %cst_11 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %40 = stablehlo.divide %38, %39 : tensor<2x6x1xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x8xf32>
    %42 = stablehlo.subtract %36, %41 : tensor<2x6x8xf32>
    %43 = stablehlo.multiply %42, %42 : tensor<2x6x8xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x6x8xf32>
    %45 = stablehlo.multiply %44, %42 : tensor<2x6x8xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%43 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<2x6xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %cst_14 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %49 = stablehlo.divide %47, %48 : tensor<2x6x1xf32>
    %50 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x8xf32>
    %51 = stablehlo.subtract %36, %50 : tensor<2x6x8xf32>
    %cst_15 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %53 = stablehlo.add %49, %52 : tensor<2x6x1xf32>
    %54 = stablehlo.rsqrt %53 : tensor<2x6x1xf32>
    %55 = stablehlo.divide %54, %53 : tensor<2x6x1xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %57 = stablehlo.multiply %56, %55 : tensor<2x6x1xf32>
    %58 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x8xf32>
    %59 = stablehlo.multiply %51, %58 : tensor<2x6x8xf32>
    %60 = stablehlo.broadcast_in_dim %arg3, dims = [2] : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %61 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<2x6x8xf32>
    %62 = stablehlo.multiply %59, %61 : tensor<2x6x8xf32>
    %63 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<2x6x8xf32>
    %65 = stablehlo.add %62, %64 : tensor<2x6x8xf32>
    %66 = stablehlo.subtract %65, %arg6 : tensor<2x6x8xf32>
    %67 = stablehlo.multiply %66, %66 : tensor<2x6x8xf32>
    %cst_17 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x6x8xf32>
    %69 = stablehlo.multiply %68, %66 : tensor<2x6x8xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%67 init: %cst_18) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_19 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %71 = stablehlo.divide %70, %cst_19 : tensor<f32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_21 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %72 = stablehlo.divide %cst_20, %cst_21 : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %72, dims = [] : (tensor<f32>) -> tensor<2x6x8xf32>
    %74 = stablehlo.multiply %73, %69 : tensor<2x6x8xf32>
    %cst_22 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.reduce(%74 init: %cst_22) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<8xf32>
    %76 = stablehlo.reshape %75 : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.reduce(%76 init: %cst_23) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %78 = stablehlo.multiply %59, %74 : tensor<2x6x8xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%78 init: %cst_24) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<8xf32>
    %80 = stablehlo.reshape %79 : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %81 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<2x6x8xf32>
    %82 = stablehlo.multiply %74, %81 : tensor<2x6x8xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %83 = stablehlo.reduce(%80 init: %cst_25) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %84 = stablehlo.multiply %51, %82 : tensor<2x6x8xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %85 = stablehlo.reduce(%84 init: %cst_26) applies stablehlo.add across dimensions = [2] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<2x6xf32>
    %86 = stablehlo.reshape %85 : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %87 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x8xf32>
    %88 = stablehlo.multiply %82, %87 : tensor<2x6x8xf32>
    %89 = stablehlo.multiply %86, %57 : tensor<2x6x1xf32>
    %90 = stablehlo.negate %88 : tensor<2x6x8xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %91 = stablehlo.reduce(%90 init: %cst_27) applies stablehlo.add across dimensions = [2] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<2x6xf32>
    %92 = stablehlo.reshape %91 : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %cst_28 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %94 = stablehlo.divide %89, %93 : tensor<2x6x1xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %95 = stablehlo.reduce(%94 init: %cst_29) applies stablehlo.add across dimensions = [2] : (tensor<2x6x1xf32>, tensor<f32>) -> tensor<2x6xf32>
    %96 = stablehlo.broadcast_in_dim %95, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x8xf32>
    %97 = stablehlo.multiply %96, %45 : tensor<2x6x8xf32>
    %98 = stablehlo.negate %97 : tensor<2x6x8xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.reduce(%98 init: %cst_30) applies stablehlo.add across dimensions = [2] : (tensor<2x6x8xf32>, tensor<f32>) -> tensor<2x6xf32>
    %100 = stablehlo.reshape %99 : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %101 = stablehlo.add %88, %97 : tensor<2x6x8xf32>
    %102 = stablehlo.add %92, %100 : tensor<2x6x1xf32>
    %cst_31 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<2x6x1xf32>
    %104 = stablehlo.divide %102, %103 : tensor<2x6x1xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %105 = stablehlo.reduce(%104 init: %cst_32) applies stablehlo.add across dimensions = [2] : (tensor<2x6x1xf32>, tensor<f32>) -> tensor<2x6xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x8xf32>
    %107 = stablehlo.add %101, %106 : tensor<2x6x8xf32>
    %108 = stablehlo.dot_general %107, %31, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<2x6x6xf32>) -> tensor<2x8x6xf32>
    %109 = stablehlo.transpose %108, dims = [0, 2, 1] : (tensor<2x8x6xf32>) -> tensor<2x6x8xf32>
    %110 = stablehlo.dot_general %107, %2, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<2x6x6xf32>
    %111 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %112 = stablehlo.multiply %110, %111 : tensor<2x6x6xf32>
    %113 = stablehlo.multiply %112, %27 : tensor<2x6x6xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %114 = stablehlo.reduce(%113 init: %cst_33) applies stablehlo.add across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %115 = stablehlo.reshape %114 : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %116 = stablehlo.negate %115 : tensor<2x6x1xf32>
    %117 = stablehlo.broadcast_in_dim %29, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %118 = stablehlo.divide %110, %117 : tensor<2x6x6xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %119 = stablehlo.reduce(%116 init: %cst_34) applies stablehlo.add across dimensions = [2] : (tensor<2x6x1xf32>, tensor<f32>) -> tensor<2x6xf32>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x6xf32>
    %121 = stablehlo.add %118, %120 : tensor<2x6x6xf32>
    %122 = stablehlo.multiply %121, %27 : tensor<2x6x6xf32>
    %cst_35 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %123 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<2x6x6xf32>
    %124 = stablehlo.divide %122, %123 : tensor<2x6x6xf32>
    %125 = stablehlo.dot_general %124, %0, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xf32>, tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
    %126 = stablehlo.dot_general %124, %1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xf32>, tensor<2x6x8xf32>) -> tensor<2x6x8xf32>
    %127 = stablehlo.dot_general %109, %arg5, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<8x8xf32>
    %128 = stablehlo.transpose %127, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %129 = stablehlo.dot_general %109, %arg2, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
    %130 = stablehlo.add %107, %129 : tensor<2x6x8xf32>
    %131 = stablehlo.dot_general %125, %arg5, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<8x8xf32>
    %132 = stablehlo.transpose %131, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %133 = stablehlo.dot_general %125, %arg1, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
    %134 = stablehlo.add %130, %133 : tensor<2x6x8xf32>
    %135 = stablehlo.dot_general %126, %arg5, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<2x6x8xf32>) -> tensor<8x8xf32>
    %136 = stablehlo.transpose %135, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %137 = stablehlo.dot_general %126, %arg0, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x8xf32>, tensor<8x8xf32>) -> tensor<2x6x8xf32>
    %138 = stablehlo.add %134, %137 : tensor<2x6x8xf32>
    return %71, %136, %132, %128, %83, %77, %138 : tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x6x8xf32>
  }
}
