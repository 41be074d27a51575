module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x20xf32>, %arg1: tensor<5x20xf32>, %arg2: tensor<20xf32>, %arg3: tensor<5x4x3xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<3x20xf32> {jax.result_info = "result[1]"}, tensor<5x20xf32> {jax.result_info = "result[2]"}, tensor<20xf32> {jax.result_info = "result[3]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %2 = stablehlo.slice %arg3 [0:1, 0:4, 0:3] : (tensor<5x4x3xf32>) -> tensor<1x4x3xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %4 = stablehlo.dot_general %3, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x20xf32>) -> tensor<4x20xf32>
    %5 = stablehlo.dot_general %0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5x20xf32>) -> tensor<4x20xf32>
    %6 = stablehlo.add %4, %5 : tensor<4x20xf32>
    %7 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<4x20xf32>
    %9 = stablehlo.add %6, %8 : tensor<4x20xf32>
    %10 = stablehlo.slice %9 [0:4, 0:5] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %11 = stablehlo.slice %9 [0:4, 5:10] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %12 = stablehlo.slice %9 [0:4, 10:15] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %13 = stablehlo.slice %9 [0:4, 15:20] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %14 = stablehlo.negate %11 : tensor<4x5xf32>
    %15 = stablehlo.exponential %14 : tensor<4x5xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %17 = stablehlo.add %16, %15 : tensor<4x5xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %19 = stablehlo.divide %18, %17 : tensor<4x5xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %21 = stablehlo.subtract %20, %19 : tensor<4x5xf32>
    %22 = stablehlo.multiply %19, %21 : tensor<4x5xf32>
    %23 = stablehlo.multiply %19, %1 : tensor<4x5xf32>
    %24 = stablehlo.negate %10 : tensor<4x5xf32>
    %25 = stablehlo.exponential %24 : tensor<4x5xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %27 = stablehlo.add %26, %25 : tensor<4x5xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %29 = stablehlo.divide %28, %27 : tensor<4x5xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %31 = stablehlo.subtract %30, %29 : tensor<4x5xf32>
    %32 = stablehlo.multiply %29, %31 : tensor<4x5xf32>
    %33 = stablehlo.tanh %12 : tensor<4x5xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %35 = stablehlo.subtract %34, %33 : tensor<4x5xf32>
    %36 = stablehlo.multiply %29, %33 : tensor<4x5xf32>
    %37 = stablehlo.add %23, %36 : tensor<4x5xf32>
    %38 = stablehlo.negate %13 : tensor<4x5xf32>
    %39 = stablehlo.exponential %38 : tensor<4x5xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %41 = stablehlo.add %40, %39 : tensor<4x5xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %43 = stablehlo.divide %42, %41 : tensor<4x5xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %45 = stablehlo.subtract %44, %43 : tensor<4x5xf32>
    %46 = stablehlo.multiply %43, %45 : tensor<4x5xf32>
    %47 = stablehlo.tanh %37 : tensor<4x5xf32>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %49 = stablehlo.subtract %48, %47 : tensor<4x5xf32>
    %50 = stablehlo.multiply %43, %47 : tensor<4x5xf32>
    %51 = stablehlo.slice %arg3 [1:2, 0:4, 0:3] : (tensor<5x4x3xf32>) -> tensor<1x4x3xf32>
    %52 = stablehlo.reshape %51 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %53 = stablehlo.dot_general %52, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x20xf32>) -> tensor<4x20xf32>
    %54 = stablehlo.dot_general %50, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5x20xf32>) -> tensor<4x20xf32>
    %55 = stablehlo.add %53, %54 : tensor<4x20xf32>
    %56 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<4x20xf32>
    %58 = stablehlo.add %55, %57 : tensor<4x20xf32>
    %59 = stablehlo.slice %58 [0:4, 0:5] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %60 = stablehlo.slice %58 [0:4, 5:10] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %61 = stablehlo.slice %58 [0:4, 10:15] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %62 = stablehlo.slice %58 [0:4, 15:20] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %63 = stablehlo.negate %60 : tensor<4x5xf32>
    %64 = stablehlo.exponential %63 : tensor<4x5xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %66 = stablehlo.add %65, %64 : tensor<4x5xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %68 = stablehlo.divide %67, %66 : tensor<4x5xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %70 = stablehlo.subtract %69, %68 : tensor<4x5xf32>
    %71 = stablehlo.multiply %68, %70 : tensor<4x5xf32>
    %72 = stablehlo.multiply %68, %37 : tensor<4x5xf32>
    %73 = stablehlo.negate %59 : tensor<4x5xf32>
    %74 = stablehlo.exponential %73 : tensor<4x5xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %76 = stablehlo.add %75, %74 : tensor<4x5xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %78 = stablehlo.divide %77, %76 : tensor<4x5xf32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %80 = stablehlo.subtract %79, %78 : tensor<4x5xf32>
    %81 = stablehlo.multiply %78, %80 : tensor<4x5xf32>
    %82 = stablehlo.tanh %61 : tensor<4x5xf32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %84 = stablehlo.subtract %83, %82 : tensor<4x5xf32>
    %85 = stablehlo.multiply %78, %82 : tensor<4x5xf32>
    %86 = stablehlo.add %72, %85 : tensor<4x5xf32>
    %87 = stablehlo.negate %62 : tensor<4x5xf32>
    %88 = stablehlo.exponential %87 : tensor<4x5xf32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %90 = stablehlo.add %89, %88 : tensor<4x5xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %92 = stablehlo.divide %91, %90 : tensor<4x5xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %93 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %94 = stablehlo.subtract %93, %92 : tensor<4x5xf32>
    %95 = stablehlo.multiply %92, %94 : tensor<4x5xf32>
    %96 = stablehlo.tanh %86 : tensor<4x5xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %98 = stablehlo.subtract %97, %96 : tensor<4x5xf32>
    %99 = stablehlo.multiply %92, %96 : tensor<4x5xf32>
    %100 = stablehlo.slice %arg3 [2:3, 0:4, 0:3] : (tensor<5x4x3xf32>) -> tensor<1x4x3xf32>
    %101 = stablehlo.reshape %100 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %102 = stablehlo.dot_general %101, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x20xf32>) -> tensor<4x20xf32>
    %103 = stablehlo.dot_general %99, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5x20xf32>) -> tensor<4x20xf32>
    %104 = stablehlo.add %102, %103 : tensor<4x20xf32>
    %105 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<4x20xf32>
    %107 = stablehlo.add %104, %106 : tensor<4x20xf32>
    %108 = stablehlo.slice %107 [0:4, 0:5] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %109 = stablehlo.slice %107 [0:4, 5:10] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %110 = stablehlo.slice %107 [0:4, 10:15] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %111 = stablehlo.slice %107 [0:4, 15:20] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %112 = stablehlo.negate %109 : tensor<4x5xf32>
    %113 = stablehlo.exponential %112 : tensor<4x5xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %115 = stablehlo.add %114, %113 : tensor<4x5xf32>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %117 = stablehlo.divide %116, %115 : tensor<4x5xf32>
    %cst_25 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %119 = stablehlo.subtract %118, %117 : tensor<4x5xf32>
    %120 = stablehlo.multiply %117, %119 : tensor<4x5xf32>
    %121 = stablehlo.multiply %117, %86 : tensor<4x5xf32>
    %122 = stablehlo.negate %108 : tensor<4x5xf32>
    %123 = stablehlo.exponential %122 : tensor<4x5xf32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %124 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %125 = stablehlo.add %124, %123 : tensor<4x5xf32>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %127 = stablehlo.divide %126, %125 : tensor<4x5xf32>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %129 = stablehlo.subtract %128, %127 : tensor<4x5xf32>
    %130 = stablehlo.multiply %127, %129 : tensor<4x5xf32>
    %131 = stablehlo.tanh %110 : tensor<4x5xf32>
    %cst_29 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %133 = stablehlo.subtract %132, %131 : tensor<4x5xf32>
    %134 = stablehlo.multiply %127, %131 : tensor<4x5xf32>
    %135 = stablehlo.add %121, %134 : tensor<4x5xf32>
    %136 = stablehlo.negate %111 : tensor<4x5xf32>
    %137 = stablehlo.exponential %136 : tensor<4x5xf32>
    %cst_30 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %138 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %139 = stablehlo.add %138, %137 : tensor<4x5xf32>
    %cst_31 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %141 = stablehlo.divide %140, %139 : tensor<4x5xf32>
    %cst_32 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %143 = stablehlo.subtract %142, %141 : tensor<4x5xf32>
    %144 = stablehlo.multiply %141, %143 : tensor<4x5xf32>
    %145 = stablehlo.tanh %135 : tensor<4x5xf32>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %146 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %147 = stablehlo.subtract %146, %145 : tensor<4x5xf32>
    %148 = stablehlo.multiply %141, %145 : tensor<4x5xf32>
    %149 = stablehlo.slice %arg3 [3:4, 0:4, 0:3] : (tensor<5x4x3xf32>) -> tensor<1x4x3xf32>
    %150 = stablehlo.reshape %149 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %151 = stablehlo.dot_general %150, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x20xf32>) -> tensor<4x20xf32>
    %152 = stablehlo.dot_general %148, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5x20xf32>) -> tensor<4x20xf32>
    %153 = stablehlo.add %151, %152 : tensor<4x20xf32>
    %154 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<4x20xf32>
    %156 = stablehlo.add %153, %155 : tensor<4x20xf32>
    %157 = stablehlo.slice %156 [0:4, 0:5] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %158 = stablehlo.slice %156 [0:4, 5:10] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %159 = stablehlo.slice %156 [0:4, 10:15] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %160 = stablehlo.slice %156 [0:4, 15:20] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %161 = stablehlo.negate %158 : tensor<4x5xf32>
    %162 = stablehlo.exponential %161 : tensor<4x5xf32>
    %cst_34 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %163 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %164 = stablehlo.add %163, %162 : tensor<4x5xf32>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %165 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %166 = stablehlo.divide %165, %164 : tensor<4x5xf32>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %167 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %168 = stablehlo.subtract %167, %166 : tensor<4x5xf32>
    %169 = stablehlo.multiply %166, %168 : tensor<4x5xf32>
    %170 = stablehlo.multiply %166, %135 : tensor<4x5xf32>
    %171 = stablehlo.negate %157 : tensor<4x5xf32>
    %172 = stablehlo.exponential %171 : tensor<4x5xf32>
    %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %174 = stablehlo.add %173, %172 : tensor<4x5xf32>
    %cst_38 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %175 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %176 = stablehlo.divide %175, %174 : tensor<4x5xf32>
    %cst_39 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %178 = stablehlo.subtract %177, %176 : tensor<4x5xf32>
    %179 = stablehlo.multiply %176, %178 : tensor<4x5xf32>
    %180 = stablehlo.tanh %159 : tensor<4x5xf32>
    %cst_40 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %181 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %182 = stablehlo.subtract %181, %180 : tensor<4x5xf32>
    %183 = stablehlo.multiply %176, %180 : tensor<4x5xf32>
    %184 = stablehlo.add %170, %183 : tensor<4x5xf32>
    %185 = stablehlo.negate %160 : tensor<4x5xf32>
    %186 = stablehlo.exponential %185 : tensor<4x5xf32>
    %cst_41 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %188 = stablehlo.add %187, %186 : tensor<4x5xf32>
    %cst_42 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %190 = stablehlo.divide %189, %188 : tensor<4x5xf32>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %191 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %192 = stablehlo.subtract %191, %190 : tensor<4x5xf32>
    %193 = stablehlo.multiply %190, %192 : tensor<4x5xf32>
    %194 = stablehlo.tanh %184 : tensor<4x5xf32>
    %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %195 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %196 = stablehlo.subtract %195, %194 : tensor<4x5xf32>
    %197 = stablehlo.multiply %190, %194 : tensor<4x5xf32>
    %198 = stablehlo.slice %arg3 [4:5, 0:4, 0:3] : (tensor<5x4x3xf32>) -> tensor<1x4x3xf32>
    %199 = stablehlo.reshape %198 : (tensor<1x4x3xf32>) -> tensor<4x3xf32>
    %200 = stablehlo.dot_general %199, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x20xf32>) -> tensor<4x20xf32>
    %201 = stablehlo.dot_general %197, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5x20xf32>) -> tensor<4x20xf32>
    %202 = stablehlo.add %200, %201 : tensor<4x20xf32>
    %203 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1] : (tensor<1x20xf32>) -> tensor<4x20xf32>
    %205 = stablehlo.add %202, %204 : tensor<4x20xf32>
    %206 = stablehlo.slice %205 [0:4, 0:5] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %207 = stablehlo.slice %205 [0:4, 5:10] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %208 = stablehlo.slice %205 [0:4, 10:15] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %209 = stablehlo.slice %205 [0:4, 15:20] : (tensor<4x20xf32>) -> tensor<4x5xf32>
    %210 = stablehlo.negate %207 : tensor<4x5xf32>
    %211 = stablehlo.exponential %210 : tensor<4x5xf32>
    %cst_45 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %212 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %213 = stablehlo.add %212, %211 : tensor<4x5xf32>
    %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %214 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %215 = stablehlo.divide %214, %213 : tensor<4x5xf32>
    %cst_47 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %217 = stablehlo.subtract %216, %215 : tensor<4x5xf32>
    %218 = stablehlo.multiply %215, %217 : tensor<4x5xf32>
    %219 = stablehlo.multiply %215, %184 : tensor<4x5xf32>
    %220 = stablehlo.negate %206 : tensor<4x5xf32>
    %221 = stablehlo.exponential %220 : tensor<4x5xf32>
    %cst_48 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %222 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %223 = stablehlo.add %222, %221 : tensor<4x5xf32>
    %cst_49 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %224 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %225 = stablehlo.divide %224, %223 : tensor<4x5xf32>
    %cst_50 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %226 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %227 = stablehlo.subtract %226, %225 : tensor<4x5xf32>
    %228 = stablehlo.multiply %225, %227 : tensor<4x5xf32>
    %229 = stablehlo.tanh %208 : tensor<4x5xf32>
    %cst_51 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %230 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %231 = stablehlo.subtract %230, %229 : tensor<4x5xf32>
    %232 = stablehlo.multiply %225, %229 : tensor<4x5xf32>
    %233 = stablehlo.add %219, %232 : tensor<4x5xf32>
    %234 = stablehlo.negate %209 : tensor<4x5xf32>
    %235 = stablehlo.exponential %234 : tensor<4x5xf32>
    %cst_52 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %236 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %237 = stablehlo.add %236, %235 : tensor<4x5xf32>
    %cst_53 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %238 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %239 = stablehlo.divide %238, %237 : tensor<4x5xf32>
    %cst_54 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %240 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %241 = stablehlo.subtract %240, %239 : tensor<4x5xf32>
    %242 = stablehlo.multiply %239, %241 : tensor<4x5xf32>
    %243 = stablehlo.tanh %233 : tensor<4x5xf32>
    %cst_55 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %244 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %245 = stablehlo.subtract %244, %243 : tensor<4x5xf32>
    %246 = stablehlo.multiply %239, %243 : tensor<4x5xf32>
    %247 = stablehlo.multiply %246, %246 : tensor<4x5xf32>
    %cst_56 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %248 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %249 = stablehlo.multiply %248, %246 : tensor<4x5xf32>
    %cst_57 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %250 = stablehlo.reduce(%247 init: %cst_57) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_58 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %251 = stablehlo.reduce(%233 init: %cst_58) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<f32>
    %cst_59 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %252 = stablehlo.multiply %cst_59, %251 : tensor<f32>
    %253 = stablehlo.add %250, %252 : tensor<f32>
    %cst_60 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %cst_61 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %254 = stablehlo.multiply %cst_60, %cst_61 : tensor<f32>
    %255 = stablehlo.broadcast_in_dim %254, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %cst_62 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %256 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %257 = stablehlo.multiply %256, %249 : tensor<4x5xf32>
    %258 = stablehlo.multiply %239, %257 : tensor<4x5xf32>
    %259 = stablehlo.multiply %257, %243 : tensor<4x5xf32>
    %260 = stablehlo.multiply %258, %245 : tensor<4x5xf32>
    %261 = stablehlo.add %255, %260 : tensor<4x5xf32>
    %262 = stablehlo.multiply %260, %243 : tensor<4x5xf32>
    %263 = stablehlo.add %261, %262 : tensor<4x5xf32>
    %264 = stablehlo.multiply %259, %242 : tensor<4x5xf32>
    %265 = stablehlo.multiply %225, %263 : tensor<4x5xf32>
    %266 = stablehlo.multiply %263, %229 : tensor<4x5xf32>
    %267 = stablehlo.multiply %265, %231 : tensor<4x5xf32>
    %268 = stablehlo.multiply %267, %229 : tensor<4x5xf32>
    %269 = stablehlo.add %267, %268 : tensor<4x5xf32>
    %270 = stablehlo.multiply %266, %228 : tensor<4x5xf32>
    %271 = stablehlo.multiply %215, %263 : tensor<4x5xf32>
    %272 = stablehlo.multiply %263, %184 : tensor<4x5xf32>
    %273 = stablehlo.multiply %272, %218 : tensor<4x5xf32>
    %274 = stablehlo.concatenate %270, %273, %269, %264, dim = 1 : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x20xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %275 = stablehlo.reduce(%274 init: %cst_63) applies stablehlo.add across dimensions = [0] : (tensor<4x20xf32>, tensor<f32>) -> tensor<20xf32>
    %276 = stablehlo.reshape %275 : (tensor<20xf32>) -> tensor<1x20xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %277 = stablehlo.reduce(%276 init: %cst_64) applies stablehlo.add across dimensions = [0] : (tensor<1x20xf32>, tensor<f32>) -> tensor<20xf32>
    %278 = stablehlo.dot_general %274, %197, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x5xf32>) -> tensor<20x5xf32>
    %279 = stablehlo.transpose %278, dims = [1, 0] : (tensor<20x5xf32>) -> tensor<5x20xf32>
    %280 = stablehlo.dot_general %274, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<5x20xf32>) -> tensor<4x5xf32>
    %281 = stablehlo.dot_general %274, %199, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x3xf32>) -> tensor<20x3xf32>
    %282 = stablehlo.transpose %281, dims = [1, 0] : (tensor<20x3xf32>) -> tensor<3x20xf32>
    %283 = stablehlo.multiply %190, %280 : tensor<4x5xf32>
    %284 = stablehlo.multiply %280, %194 : tensor<4x5xf32>
    %285 = stablehlo.multiply %283, %196 : tensor<4x5xf32>
    %286 = stablehlo.add %271, %285 : tensor<4x5xf32>
    %287 = stablehlo.multiply %285, %194 : tensor<4x5xf32>
    %288 = stablehlo.add %286, %287 : tensor<4x5xf32>
    %289 = stablehlo.multiply %284, %193 : tensor<4x5xf32>
    %290 = stablehlo.multiply %176, %288 : tensor<4x5xf32>
    %291 = stablehlo.multiply %288, %180 : tensor<4x5xf32>
    %292 = stablehlo.multiply %290, %182 : tensor<4x5xf32>
    %293 = stablehlo.multiply %292, %180 : tensor<4x5xf32>
    %294 = stablehlo.add %292, %293 : tensor<4x5xf32>
    %295 = stablehlo.multiply %291, %179 : tensor<4x5xf32>
    %296 = stablehlo.multiply %166, %288 : tensor<4x5xf32>
    %297 = stablehlo.multiply %288, %135 : tensor<4x5xf32>
    %298 = stablehlo.multiply %297, %169 : tensor<4x5xf32>
    %299 = stablehlo.concatenate %295, %298, %294, %289, dim = 1 : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x20xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %300 = stablehlo.reduce(%299 init: %cst_65) applies stablehlo.add across dimensions = [0] : (tensor<4x20xf32>, tensor<f32>) -> tensor<20xf32>
    %301 = stablehlo.reshape %300 : (tensor<20xf32>) -> tensor<1x20xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %302 = stablehlo.reduce(%301 init: %cst_66) applies stablehlo.add across dimensions = [0] : (tensor<1x20xf32>, tensor<f32>) -> tensor<20xf32>
    %303 = stablehlo.add %277, %302 : tensor<20xf32>
    %304 = stablehlo.dot_general %299, %148, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x5xf32>) -> tensor<20x5xf32>
    %305 = stablehlo.transpose %304, dims = [1, 0] : (tensor<20x5xf32>) -> tensor<5x20xf32>
    %306 = stablehlo.add %279, %305 : tensor<5x20xf32>
    %307 = stablehlo.dot_general %299, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<5x20xf32>) -> tensor<4x5xf32>
    %308 = stablehlo.dot_general %299, %150, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x3xf32>) -> tensor<20x3xf32>
    %309 = stablehlo.transpose %308, dims = [1, 0] : (tensor<20x3xf32>) -> tensor<3x20xf32>
    %310 = stablehlo.add %282, %309 : tensor<3x20xf32>
    %311 = stablehlo.multiply %141, %307 : tensor<4x5xf32>
    %312 = stablehlo.multiply %307, %145 : tensor<4x5xf32>
    %313 = stablehlo.multiply %311, %147 : tensor<4x5xf32>
    %314 = stablehlo.add %296, %313 : tensor<4x5xf32>
    %315 = stablehlo.multiply %313, %145 : tensor<4x5xf32>
    %316 = stablehlo.add %314, %315 : tensor<4x5xf32>
    %317 = stablehlo.multiply %312, %144 : tensor<4x5xf32>
    %318 = stablehlo.multiply %127, %316 : tensor<4x5xf32>
    %319 = stablehlo.multiply %316, %131 : tensor<4x5xf32>
    %320 = stablehlo.multiply %318, %133 : tensor<4x5xf32>
    %321 = stablehlo.multiply %320, %131 : tensor<4x5xf32>
    %322 = stablehlo.add %320, %321 : tensor<4x5xf32>
    %323 = stablehlo.multiply %319, %130 : tensor<4x5xf32>
    %324 = stablehlo.multiply %117, %316 : tensor<4x5xf32>
    %325 = stablehlo.multiply %316, %86 : tensor<4x5xf32>
    %326 = stablehlo.multiply %325, %120 : tensor<4x5xf32>
    %327 = stablehlo.concatenate %323, %326, %322, %317, dim = 1 : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x20xf32>
    %cst_67 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %328 = stablehlo.reduce(%327 init: %cst_67) applies stablehlo.add across dimensions = [0] : (tensor<4x20xf32>, tensor<f32>) -> tensor<20xf32>
    %329 = stablehlo.reshape %328 : (tensor<20xf32>) -> tensor<1x20xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.reduce(%329 init: %cst_68) applies stablehlo.add across dimensions = [0] : (tensor<1x20xf32>, tensor<f32>) -> tensor<20xf32>
    %331 = stablehlo.add %303, %330 : tensor<20xf32>
    %332 = stablehlo.dot_general %327, %99, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x5xf32>) -> tensor<20x5xf32>
    %333 = stablehlo.transpose %332, dims = [1, 0] : (tensor<20x5xf32>) -> tensor<5x20xf32>
    %334 = stablehlo.add %306, %333 : tensor<5x20xf32>
    %335 = stablehlo.dot_general %327, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<5x20xf32>) -> tensor<4x5xf32>
    %336 = stablehlo.dot_general %327, %101, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x3xf32>) -> tensor<20x3xf32>
    %337 = stablehlo.transpose %336, dims = [1, 0] : (tensor<20x3xf32>) -> tensor<3x20xf32>
    %338 = stablehlo.add %310, %337 : tensor<3x20xf32>
    %339 = stablehlo.multiply %92, %335 : tensor<4x5xf32>
    %340 = stablehlo.multiply %335, %96 : tensor<4x5xf32>
    %341 = stablehlo.multiply %339, %98 : tensor<4x5xf32>
    %342 = stablehlo.add %324, %341 : tensor<4x5xf32>
    %343 = stablehlo.multiply %341, %96 : tensor<4x5xf32>
    %344 = stablehlo.add %342, %343 : tensor<4x5xf32>
    %345 = stablehlo.multiply %340, %95 : tensor<4x5xf32>
    %346 = stablehlo.multiply %78, %344 : tensor<4x5xf32>
    %347 = stablehlo.multiply %344, %82 : tensor<4x5xf32>
    %348 = stablehlo.multiply %346, %84 : tensor<4x5xf32>
    %349 = stablehlo.multiply %348, %82 : tensor<4x5xf32>
    %350 = stablehlo.add %348, %349 : tensor<4x5xf32>
    %351 = stablehlo.multiply %347, %81 : tensor<4x5xf32>
    %352 = stablehlo.multiply %68, %344 : tensor<4x5xf32>
    %353 = stablehlo.multiply %344, %37 : tensor<4x5xf32>
    %354 = stablehlo.multiply %353, %71 : tensor<4x5xf32>
    %355 = stablehlo.concatenate %351, %354, %350, %345, dim = 1 : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x20xf32>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %356 = stablehlo.reduce(%355 init: %cst_69) applies stablehlo.add across dimensions = [0] : (tensor<4x20xf32>, tensor<f32>) -> tensor<20xf32>
    %357 = stablehlo.reshape %356 : (tensor<20xf32>) -> tensor<1x20xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %358 = stablehlo.reduce(%357 init: %cst_70) applies stablehlo.add across dimensions = [0] : (tensor<1x20xf32>, tensor<f32>) -> tensor<20xf32>
    %359 = stablehlo.add %331, %358 : tensor<20xf32>
    %360 = stablehlo.dot_general %355, %50, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x5xf32>) -> tensor<20x5xf32>
    %361 = stablehlo.transpose %360, dims = [1, 0] : (tensor<20x5xf32>) -> tensor<5x20xf32>
    %362 = stablehlo.add %334, %361 : tensor<5x20xf32>
    %363 = stablehlo.dot_general %355, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<5x20xf32>) -> tensor<4x5xf32>
    %364 = stablehlo.dot_general %355, %52, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x3xf32>) -> tensor<20x3xf32>
    %365 = stablehlo.transpose %364, dims = [1, 0] : (tensor<20x3xf32>) -> tensor<3x20xf32>
    %366 = stablehlo.add %338, %365 : tensor<3x20xf32>
    %367 = stablehlo.multiply %43, %363 : tensor<4x5xf32>
    %368 = stablehlo.multiply %363, %47 : tensor<4x5xf32>
    %369 = stablehlo.multiply %367, %49 : tensor<4x5xf32>
    %370 = stablehlo.add %352, %369 : tensor<4x5xf32>
    %371 = stablehlo.multiply %369, %47 : tensor<4x5xf32>
    %372 = stablehlo.add %370, %371 : tensor<4x5xf32>
    %373 = stablehlo.multiply %368, %46 : tensor<4x5xf32>
    %374 = stablehlo.multiply %29, %372 : tensor<4x5xf32>
    %375 = stablehlo.multiply %372, %33 : tensor<4x5xf32>
    %376 = stablehlo.multiply %374, %35 : tensor<4x5xf32>
    %377 = stablehlo.multiply %376, %33 : tensor<4x5xf32>
    %378 = stablehlo.add %376, %377 : tensor<4x5xf32>
    %379 = stablehlo.multiply %375, %32 : tensor<4x5xf32>
    %380 = stablehlo.multiply %372, %1 : tensor<4x5xf32>
    %381 = stablehlo.multiply %380, %22 : tensor<4x5xf32>
    %382 = stablehlo.concatenate %379, %381, %378, %373, dim = 1 : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x20xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %383 = stablehlo.reduce(%382 init: %cst_71) applies stablehlo.add across dimensions = [0] : (tensor<4x20xf32>, tensor<f32>) -> tensor<20xf32>
    %384 = stablehlo.reshape %383 : (tensor<20xf32>) -> tensor<1x20xf32>
    %cst_72 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %385 = stablehlo.reduce(%384 init: %cst_72) applies stablehlo.add across dimensions = [0] : (tensor<1x20xf32>, tensor<f32>) -> tensor<20xf32>
    %386 = stablehlo.add %359, %385 : tensor<20xf32>
    %387 = stablehlo.dot_general %382, %0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x5xf32>) -> tensor<20x5xf32>
    %388 = stablehlo.transpose %387, dims = [1, 0] : (tensor<20x5xf32>) -> tensor<5x20xf32>
    %389 = stablehlo.add %362, %388 : tensor<5x20xf32>
    %390 = stablehlo.dot_general %382, %3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x20xf32>, tensor<4x3xf32>) -> tensor<20x3xf32>
    %391 = stablehlo.transpose %390, dims = [1, 0] : (tensor<20x3xf32>) -> tensor<3x20xf32>
    %392 = stablehlo.add %366, %391 : tensor<3x20xf32>
    return %253, %392, %389, %386 : tensor<f32>, tensor<3x20xf32>, tensor<5x20xf32>, tensor<20xf32>
  }
}
