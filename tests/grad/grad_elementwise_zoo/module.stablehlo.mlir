module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7xf32>, %arg1: tensor<6x7xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<6x7xf32> {jax.result_info = "result[1]"}, tensor<6x7xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<3.000000e-01> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<6x7xf32>
    %2 = stablehlo.exponential %1 : tensor<6x7xf32>
    %3 = stablehlo.log_plus_one %arg1 : tensor<6x7xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %5 = stablehlo.add %arg1, %4 : tensor<6x7xf32>
    %6 = stablehlo.add %2, %3 : tensor<6x7xf32>
    %cst_1 = stablehlo.constant dense<2.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %8 = stablehlo.multiply %7, %arg0 : tensor<6x7xf32>
    %9 = stablehlo.exponential_minus_one %8 : tensor<6x7xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %11 = stablehlo.add %9, %10 : tensor<6x7xf32>
    %12 = stablehlo.add %6, %9 : tensor<6x7xf32>
    %13 = stablehlo.sqrt %arg1 : tensor<6x7xf32>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %15 = stablehlo.divide %14, %13 : tensor<6x7xf32>
    %16 = stablehlo.add %12, %13 : tensor<6x7xf32>
    %17 = stablehlo.negate %arg0 : tensor<6x7xf32>
    %18 = stablehlo.exponential %17 : tensor<6x7xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %20 = stablehlo.add %19, %18 : tensor<6x7xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %22 = stablehlo.divide %21, %20 : tensor<6x7xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %24 = stablehlo.subtract %23, %22 : tensor<6x7xf32>
    %25 = stablehlo.multiply %22, %24 : tensor<6x7xf32>
    %26 = stablehlo.add %16, %22 : tensor<6x7xf32>
    %27 = stablehlo.sine %arg0 : tensor<6x7xf32>
    %28 = stablehlo.cosine %arg0 : tensor<6x7xf32>
    %29 = stablehlo.cosine %arg1 : tensor<6x7xf32>
    %30 = stablehlo.sine %arg1 : tensor<6x7xf32>
    %31 = stablehlo.multiply %27, %29 : tensor<6x7xf32>
    %32 = stablehlo.add %26, %31 : tensor<6x7xf32>
    %cst_7 = stablehlo.constant dense<3.000000e-01> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %34 = stablehlo.multiply %33, %arg0 : tensor<6x7xf32>
    %35 = stablehlo.tan %34 : tensor<6x7xf32>
    %36 = chlo.square %35 : tensor<6x7xf32> -> tensor<6x7xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %38 = stablehlo.add %37, %36 : tensor<6x7xf32>
    %39 = stablehlo.add %32, %35 : tensor<6x7xf32>
    %40 = chlo.erf %arg0 : tensor<6x7xf32> -> tensor<6x7xf32>
    %41 = chlo.square %arg0 : tensor<6x7xf32> -> tensor<6x7xf32>
    %42 = stablehlo.negate %41 : tensor<6x7xf32>
    %43 = stablehlo.exponential %42 : tensor<6x7xf32>
    %44 = stablehlo.add %39, %40 : tensor<6x7xf32>
    %45 = stablehlo.cbrt %arg1 : tensor<6x7xf32>
    %46 = stablehlo.multiply %45, %45 : tensor<6x7xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %48 = stablehlo.divide %47, %46 : tensor<6x7xf32>
    %cst_10 = stablehlo.constant dense<0.333333343> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %50 = stablehlo.multiply %49, %48 : tensor<6x7xf32>
    %51 = stablehlo.add %44, %45 : tensor<6x7xf32>
    %cst_11 = stablehlo.constant dense<1.700000e+00> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %53 = stablehlo.power %arg1, %52 : tensor<6x7xf32>
    %cst_12 = stablehlo.constant dense<1.700000e+00> : tensor<f32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %54 = stablehlo.subtract %cst_12, %cst_13 : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %56 = stablehlo.power %arg1, %55 : tensor<6x7xf32>
    %cst_14 = stablehlo.constant dense<1.700000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %58 = stablehlo.multiply %57, %56 : tensor<6x7xf32>
    %59 = stablehlo.add %51, %53 : tensor<6x7xf32>
    %60 = stablehlo.atan2 %arg0, %arg1 : tensor<6x7xf32>
    %61 = chlo.square %arg0 : tensor<6x7xf32> -> tensor<6x7xf32>
    %62 = chlo.square %arg1 : tensor<6x7xf32> -> tensor<6x7xf32>
    %63 = stablehlo.add %61, %62 : tensor<6x7xf32>
    %64 = stablehlo.divide %arg1, %63 : tensor<6x7xf32>
    %65 = stablehlo.negate %arg0 : tensor<6x7xf32>
    %66 = chlo.square %arg0 : tensor<6x7xf32> -> tensor<6x7xf32>
    %67 = chlo.square %arg1 : tensor<6x7xf32> -> tensor<6x7xf32>
    %68 = stablehlo.add %66, %67 : tensor<6x7xf32>
    %69 = stablehlo.divide %65, %68 : tensor<6x7xf32>
    %70 = stablehlo.add %59, %60 : tensor<6x7xf32>
    %71 = stablehlo.abs %arg0 : tensor<6x7xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %73 = stablehlo.compare GE, %arg0, %72, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %74 = stablehlo.add %70, %71 : tensor<6x7xf32>
    %cst_16 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_17 = stablehlo.constant dense<0.699999988> : tensor<f32>
    %75:3 = call @clip(%arg0, %cst_16, %cst_17) : (tensor<6x7xf32>, tensor<f32>, tensor<f32>) -> (tensor<6x7xf32>, tensor<6x7xf32>, tensor<6x7xf32>)
    %76 = stablehlo.add %74, %75#0 : tensor<6x7xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %78 = stablehlo.compare GT, %arg0, %77, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %79 = stablehlo.multiply %arg0, %arg1 : tensor<6x7xf32>
    %80 = stablehlo.negate %arg1 : tensor<6x7xf32>
    %81 = call @_where(%78, %79, %80) : (tensor<6x7xi1>, tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xf32>
    %82 = stablehlo.add %76, %81 : tensor<6x7xf32>
    %cst_19 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %84 = stablehlo.multiply %83, %arg1 : tensor<6x7xf32>
    %85 = stablehlo.maximum %arg0, %84 : tensor<6x7xf32>
    %86 = stablehlo.compare EQ, %arg0, %85, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %89 = stablehlo.select %86, %87, %88 : tensor<6x7xi1>, tensor<6x7xf32>
    %90 = stablehlo.compare EQ, %84, %85, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_22 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %92 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %93 = stablehlo.select %90, %91, %92 : tensor<6x7xi1>, tensor<6x7xf32>
    %94 = stablehlo.divide %89, %93 : tensor<6x7xf32>
    %95 = stablehlo.compare EQ, %84, %85, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_24 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %98 = stablehlo.select %95, %96, %97 : tensor<6x7xi1>, tensor<6x7xf32>
    %99 = stablehlo.compare EQ, %arg0, %85, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_26 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %102 = stablehlo.select %99, %100, %101 : tensor<6x7xi1>, tensor<6x7xf32>
    %103 = stablehlo.divide %98, %102 : tensor<6x7xf32>
    %104 = stablehlo.add %82, %85 : tensor<6x7xf32>
    %105 = stablehlo.minimum %arg0, %arg1 : tensor<6x7xf32>
    %106 = stablehlo.compare EQ, %arg0, %105, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_28 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_29 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %109 = stablehlo.select %106, %107, %108 : tensor<6x7xi1>, tensor<6x7xf32>
    %110 = stablehlo.compare EQ, %arg1, %105, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_30 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_31 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %112 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %113 = stablehlo.select %110, %111, %112 : tensor<6x7xi1>, tensor<6x7xf32>
    %114 = stablehlo.divide %109, %113 : tensor<6x7xf32>
    %115 = stablehlo.compare EQ, %arg1, %105, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_32 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %117 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %118 = stablehlo.select %115, %116, %117 : tensor<6x7xi1>, tensor<6x7xf32>
    %119 = stablehlo.compare EQ, %arg0, %105, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_34 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %120 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_35 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %122 = stablehlo.select %119, %120, %121 : tensor<6x7xi1>, tensor<6x7xf32>
    %123 = stablehlo.divide %118, %122 : tensor<6x7xf32>
    %124 = stablehlo.subtract %104, %105 : tensor<6x7xf32>
    %125 = stablehlo.divide %arg0, %arg1 : tensor<6x7xf32>
    %126 = stablehlo.multiply %arg1, %arg1 : tensor<6x7xf32>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %128 = stablehlo.divide %127, %126 : tensor<6x7xf32>
    %129 = stablehlo.add %124, %125 : tensor<6x7xf32>
    %130 = stablehlo.rsqrt %arg1 : tensor<6x7xf32>
    %131 = stablehlo.divide %130, %arg1 : tensor<6x7xf32>
    %cst_37 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %133 = stablehlo.multiply %132, %131 : tensor<6x7xf32>
    %134 = stablehlo.add %129, %130 : tensor<6x7xf32>
    %135 = stablehlo.log %arg1 : tensor<6x7xf32>
    %136 = stablehlo.add %134, %135 : tensor<6x7xf32>
    %137 = stablehlo.multiply %136, %136 : tensor<6x7xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.reduce(%137 init: %cst_38) applies stablehlo.add across dimensions = [0, 1] : (tensor<6x7xf32>, tensor<f32>) -> tensor<f32>
    %cst_39 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %139 = stablehlo.multiply %138, %cst_39 : tensor<f32>
    %cst_40 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_41 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %140 = stablehlo.multiply %cst_40, %cst_41 : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %140, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %142 = stablehlo.multiply %136, %141 : tensor<6x7xf32>
    %143 = stablehlo.multiply %141, %136 : tensor<6x7xf32>
    %144 = stablehlo.add %142, %143 : tensor<6x7xf32>
    %145 = stablehlo.divide %144, %arg1 : tensor<6x7xf32>
    %146 = stablehlo.multiply %144, %133 : tensor<6x7xf32>
    %147 = stablehlo.add %145, %146 : tensor<6x7xf32>
    %148 = stablehlo.multiply %144, %128 : tensor<6x7xf32>
    %149 = stablehlo.multiply %148, %arg0 : tensor<6x7xf32>
    %150 = stablehlo.negate %149 : tensor<6x7xf32>
    %151 = stablehlo.add %147, %150 : tensor<6x7xf32>
    %152 = stablehlo.divide %144, %arg1 : tensor<6x7xf32>
    %153 = stablehlo.negate %144 : tensor<6x7xf32>
    %154 = stablehlo.multiply %153, %123 : tensor<6x7xf32>
    %155 = stablehlo.add %151, %154 : tensor<6x7xf32>
    %156 = stablehlo.multiply %153, %114 : tensor<6x7xf32>
    %157 = stablehlo.add %152, %156 : tensor<6x7xf32>
    %158 = stablehlo.multiply %144, %103 : tensor<6x7xf32>
    %159 = stablehlo.multiply %144, %94 : tensor<6x7xf32>
    %160 = stablehlo.add %157, %159 : tensor<6x7xf32>
    %cst_42 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %162 = stablehlo.multiply %161, %158 : tensor<6x7xf32>
    %163 = stablehlo.add %155, %162 : tensor<6x7xf32>
    %164:2 = call @_where_0(%78, %144) : (tensor<6x7xi1>, tensor<6x7xf32>) -> (tensor<6x7xf32>, tensor<6x7xf32>)
    %165 = stablehlo.negate %164#1 : tensor<6x7xf32>
    %166 = stablehlo.add %163, %165 : tensor<6x7xf32>
    %167 = stablehlo.multiply %arg0, %164#0 : tensor<6x7xf32>
    %168 = stablehlo.add %166, %167 : tensor<6x7xf32>
    %169 = stablehlo.multiply %164#0, %arg1 : tensor<6x7xf32>
    %170 = stablehlo.add %160, %169 : tensor<6x7xf32>
    %171 = call @clip_1(%75#1, %75#2, %144) : (tensor<6x7xf32>, tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xf32>
    %172 = stablehlo.add %170, %171 : tensor<6x7xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %174 = stablehlo.select %73, %173, %144 : tensor<6x7xi1>, tensor<6x7xf32>
    %175 = stablehlo.select %73, %144, %173 : tensor<6x7xi1>, tensor<6x7xf32>
    %176 = stablehlo.add %172, %175 : tensor<6x7xf32>
    %177 = stablehlo.negate %174 : tensor<6x7xf32>
    %178 = stablehlo.add %176, %177 : tensor<6x7xf32>
    %179 = stablehlo.multiply %144, %69 : tensor<6x7xf32>
    %180 = stablehlo.add %168, %179 : tensor<6x7xf32>
    %181 = stablehlo.multiply %144, %64 : tensor<6x7xf32>
    %182 = stablehlo.add %178, %181 : tensor<6x7xf32>
    %183 = stablehlo.multiply %144, %58 : tensor<6x7xf32>
    %184 = stablehlo.add %180, %183 : tensor<6x7xf32>
    %185 = stablehlo.multiply %144, %50 : tensor<6x7xf32>
    %186 = stablehlo.add %184, %185 : tensor<6x7xf32>
    %cst_44 = stablehlo.constant dense<1.12837923> : tensor<f32>
    %187 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %188 = stablehlo.multiply %187, %144 : tensor<6x7xf32>
    %189 = stablehlo.multiply %188, %43 : tensor<6x7xf32>
    %190 = stablehlo.add %182, %189 : tensor<6x7xf32>
    %191 = stablehlo.multiply %144, %38 : tensor<6x7xf32>
    %cst_45 = stablehlo.constant dense<3.000000e-01> : tensor<f32>
    %192 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %193 = stablehlo.multiply %192, %191 : tensor<6x7xf32>
    %194 = stablehlo.add %190, %193 : tensor<6x7xf32>
    %195 = stablehlo.multiply %27, %144 : tensor<6x7xf32>
    %196 = stablehlo.multiply %144, %29 : tensor<6x7xf32>
    %197 = stablehlo.negate %195 : tensor<6x7xf32>
    %198 = stablehlo.multiply %197, %30 : tensor<6x7xf32>
    %199 = stablehlo.add %186, %198 : tensor<6x7xf32>
    %200 = stablehlo.multiply %196, %28 : tensor<6x7xf32>
    %201 = stablehlo.add %194, %200 : tensor<6x7xf32>
    %202 = stablehlo.multiply %144, %25 : tensor<6x7xf32>
    %203 = stablehlo.add %201, %202 : tensor<6x7xf32>
    %204 = stablehlo.multiply %144, %15 : tensor<6x7xf32>
    %205 = stablehlo.add %199, %204 : tensor<6x7xf32>
    %206 = stablehlo.multiply %144, %11 : tensor<6x7xf32>
    %cst_46 = stablehlo.constant dense<2.000000e-01> : tensor<f32>
    %207 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %208 = stablehlo.multiply %207, %206 : tensor<6x7xf32>
    %209 = stablehlo.add %203, %208 : tensor<6x7xf32>
    %210 = stablehlo.divide %144, %5 : tensor<6x7xf32>
    %211 = stablehlo.add %205, %210 : tensor<6x7xf32>
    %212 = stablehlo.multiply %144, %2 : tensor<6x7xf32>
    %cst_47 = stablehlo.constant dense<3.000000e-01> : tensor<f32>
    %213 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %214 = stablehlo.multiply %213, %212 : tensor<6x7xf32>
    %215 = stablehlo.add %209, %214 : tensor<6x7xf32>
    return %139, %215, %211 : tensor<f32>, tensor<6x7xf32>, tensor<6x7xf32>
  }
  func.func private @clip(%arg0: tensor<6x7xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> (tensor<6x7xf32>, tensor<6x7xf32>, tensor<6x7xf32>) {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<6x7xf32>
    %3 = stablehlo.compare EQ, %arg0, %2, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %6 = stablehlo.select %3, %4, %5 : tensor<6x7xi1>, tensor<6x7xf32>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %8 = stablehlo.compare EQ, %7, %2, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %11 = stablehlo.select %8, %9, %10 : tensor<6x7xi1>, tensor<6x7xf32>
    %12 = stablehlo.divide %6, %11 : tensor<6x7xf32>
    %13 = stablehlo.convert %arg2 : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %15 = stablehlo.minimum %14, %2 : tensor<6x7xf32>
    %16 = stablehlo.compare EQ, %2, %15, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %19 = stablehlo.select %16, %17, %18 : tensor<6x7xi1>, tensor<6x7xf32>
    %20 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %21 = stablehlo.compare EQ, %20, %15, FLOAT : (tensor<6x7xf32>, tensor<6x7xf32>) -> tensor<6x7xi1>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %24 = stablehlo.select %21, %22, %23 : tensor<6x7xi1>, tensor<6x7xf32>
    %25 = stablehlo.divide %19, %24 : tensor<6x7xf32>
    return %15, %12, %25 : tensor<6x7xf32>, tensor<6x7xf32>, tensor<6x7xf32>
  }
  func.func private @_where(%arg0: tensor<6x7xi1>, %arg1: tensor<6x7xf32>, %arg2: tensor<6x7xf32>) -> tensor<6x7xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<6x7xi1>, tensor<6x7xf32>
    return %0 : tensor<6x7xf32>
  }
  func.func private @_where_0(%arg0: tensor<6x7xi1>, %arg1: tensor<6x7xf32>) -> (tensor<6x7xf32>, tensor<6x7xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x7xf32>
    %1 = stablehlo.select %arg0, %0, %arg1 : tensor<6x7xi1>, tensor<6x7xf32>
    %2 = stablehlo.select %arg0, %arg1, %0 : tensor<6x7xi1>, tensor<6x7xf32>
    return %2, %1 : tensor<6x7xf32>, tensor<6x7xf32>
  }
  func.func private @clip_1(%arg0: tensor<6x7xf32>, %arg1: tensor<6x7xf32>, %arg2: tensor<6x7xf32>) -> tensor<6x7xf32> {
    %0 = stablehlo.multiply %arg2, %arg1 : tensor<6x7xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<6x7xf32>
    return %1 : tensor<6x7xf32>
  }
}
