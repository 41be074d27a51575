module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x9xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x9xf32> {jax.result_info = "result[1]"}) {
    %0 = call @cumsum(%arg0) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %1 = stablehlo.reverse %arg0, dims = [1] : tensor<4x9xf32>
    %2 = call @cumsum_1(%1) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %3 = stablehlo.slice %arg0 [0:4, 0:8:2] : (tensor<4x9xf32>) -> tensor<4x4xf32>
    %4 = stablehlo.slice %arg0 [0:4, 1:9:2] : (tensor<4x9xf32>) -> tensor<4x4xf32>
    %5 = stablehlo.maximum %3, %4 : tensor<4x4xf32>
    %6 = stablehlo.compare EQ, %3, %5, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %9 = stablehlo.select %6, %7, %8 : tensor<4x4xi1>, tensor<4x4xf32>
    %10 = stablehlo.compare EQ, %4, %5, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %13 = stablehlo.select %10, %11, %12 : tensor<4x4xi1>, tensor<4x4xf32>
    %14 = stablehlo.divide %9, %13 : tensor<4x4xf32>
    %15 = stablehlo.compare EQ, %4, %5, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %18 = stablehlo.select %15, %16, %17 : tensor<4x4xi1>, tensor<4x4xf32>
    %19 = stablehlo.compare EQ, %3, %5, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %22 = stablehlo.select %19, %20, %21 : tensor<4x4xi1>, tensor<4x4xf32>
    %23 = stablehlo.divide %18, %22 : tensor<4x4xf32>
    %24 = stablehlo.slice %5 [0:4, 0:3:2] : (tensor<4x4xf32>) -> tensor<4x2xf32>
    %25 = stablehlo.slice %5 [0:4, 1:4:2] : (tensor<4x4xf32>) -> tensor<4x2xf32>
    %26 = stablehlo.maximum %24, %25 : tensor<4x2xf32>
    %27 = stablehlo.compare EQ, %24, %26, FLOAT : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xi1>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %30 = stablehlo.select %27, %28, %29 : tensor<4x2xi1>, tensor<4x2xf32>
    %31 = stablehlo.compare EQ, %25, %26, FLOAT : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xi1>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %34 = stablehlo.select %31, %32, %33 : tensor<4x2xi1>, tensor<4x2xf32>
    %35 = stablehlo.divide %30, %34 : tensor<4x2xf32>
    %36 = stablehlo.compare EQ, %25, %26, FLOAT : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xi1>
    %cst_11 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %39 = stablehlo.select %36, %37, %38 : tensor<4x2xi1>, tensor<4x2xf32>
    %40 = stablehlo.compare EQ, %24, %26, FLOAT : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xi1>
    %cst_13 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %43 = stablehlo.select %40, %41, %42 : tensor<4x2xi1>, tensor<4x2xf32>
    %44 = stablehlo.divide %39, %43 : tensor<4x2xf32>
    %45 = stablehlo.slice %26 [0:4, 0:1:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %46 = stablehlo.slice %26 [0:4, 1:2:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %47 = stablehlo.maximum %45, %46 : tensor<4x1xf32>
    %48 = stablehlo.compare EQ, %45, %47, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %51 = stablehlo.select %48, %49, %50 : tensor<4x1xi1>, tensor<4x1xf32>
    %52 = stablehlo.compare EQ, %46, %47, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_17 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %54 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %55 = stablehlo.select %52, %53, %54 : tensor<4x1xi1>, tensor<4x1xf32>
    %56 = stablehlo.divide %51, %55 : tensor<4x1xf32>
    %57 = stablehlo.compare EQ, %46, %47, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %60 = stablehlo.select %57, %58, %59 : tensor<4x1xi1>, tensor<4x1xf32>
    %61 = stablehlo.compare EQ, %45, %47, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_21 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %64 = stablehlo.select %61, %62, %63 : tensor<4x1xi1>, tensor<4x1xf32>
    %65 = stablehlo.divide %60, %64 : tensor<4x1xf32>
    %66 = stablehlo.slice %47 [0:4, 0:0] : (tensor<4x1xf32>) -> tensor<4x0xf32>
    %67 = stablehlo.slice %26 [0:4, 2:2:2] : (tensor<4x2xf32>) -> tensor<4x0xf32>
    %68 = stablehlo.maximum %66, %67 : tensor<4x0xf32>
    %69 = stablehlo.compare EQ, %66, %68, FLOAT : (tensor<4x0xf32>, tensor<4x0xf32>) -> tensor<4x0xi1>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %72 = stablehlo.select %69, %70, %71 : tensor<4x0xi1>, tensor<4x0xf32>
    %73 = stablehlo.compare EQ, %67, %68, FLOAT : (tensor<4x0xf32>, tensor<4x0xf32>) -> tensor<4x0xi1>
    %cst_25 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %76 = stablehlo.select %73, %74, %75 : tensor<4x0xi1>, tensor<4x0xf32>
    %77 = stablehlo.divide %72, %76 : tensor<4x0xf32>
    %78 = stablehlo.compare EQ, %67, %68, FLOAT : (tensor<4x0xf32>, tensor<4x0xf32>) -> tensor<4x0xi1>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %81 = stablehlo.select %78, %79, %80 : tensor<4x0xi1>, tensor<4x0xf32>
    %82 = stablehlo.compare EQ, %66, %68, FLOAT : (tensor<4x0xf32>, tensor<4x0xf32>) -> tensor<4x0xi1>
    %cst_29 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %cst_30 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %84 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<4x0xf32>
    %85 = stablehlo.select %82, %83, %84 : tensor<4x0xi1>, tensor<4x0xf32>
    %86 = stablehlo.divide %81, %85 : tensor<4x0xf32>
    %87 = stablehlo.slice %26 [0:4, 0:1] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %88 = stablehlo.concatenate %87, %68, dim = 1 : (tensor<4x1xf32>, tensor<4x0xf32>) -> tensor<4x1xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %89 = stablehlo.pad %88, %cst_31, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.pad %47, %cst_32, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %91 = stablehlo.add %89, %90 : tensor<4x2xf32>
    %92 = stablehlo.slice %91 [0:4, 0:1] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %93 = stablehlo.slice %5 [0:4, 2:4:2] : (tensor<4x4xf32>) -> tensor<4x1xf32>
    %94 = stablehlo.maximum %92, %93 : tensor<4x1xf32>
    %95 = stablehlo.compare EQ, %92, %94, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_33 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %96 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %98 = stablehlo.select %95, %96, %97 : tensor<4x1xi1>, tensor<4x1xf32>
    %99 = stablehlo.compare EQ, %93, %94, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_35 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %100 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %102 = stablehlo.select %99, %100, %101 : tensor<4x1xi1>, tensor<4x1xf32>
    %103 = stablehlo.divide %98, %102 : tensor<4x1xf32>
    %104 = stablehlo.compare EQ, %93, %94, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %105 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %107 = stablehlo.select %104, %105, %106 : tensor<4x1xi1>, tensor<4x1xf32>
    %108 = stablehlo.compare EQ, %92, %94, FLOAT : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xi1>
    %cst_39 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %109 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %cst_40 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %110 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %111 = stablehlo.select %108, %109, %110 : tensor<4x1xi1>, tensor<4x1xf32>
    %112 = stablehlo.divide %107, %111 : tensor<4x1xf32>
    %113 = stablehlo.slice %5 [0:4, 0:1] : (tensor<4x4xf32>) -> tensor<4x1xf32>
    %114 = stablehlo.concatenate %113, %94, dim = 1 : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %115 = stablehlo.pad %114, %cst_41, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %116 = stablehlo.pad %91, %cst_42, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    %117 = stablehlo.add %115, %116 : tensor<4x4xf32>
    %118 = stablehlo.slice %arg0 [0:4, 2:9:2] : (tensor<4x9xf32>) -> tensor<4x4xf32>
    %119 = stablehlo.maximum %117, %118 : tensor<4x4xf32>
    %120 = stablehlo.compare EQ, %117, %119, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %121 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %123 = stablehlo.select %120, %121, %122 : tensor<4x4xi1>, tensor<4x4xf32>
    %124 = stablehlo.compare EQ, %118, %119, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_45 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %125 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_46 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %126 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %127 = stablehlo.select %124, %125, %126 : tensor<4x4xi1>, tensor<4x4xf32>
    %128 = stablehlo.divide %123, %127 : tensor<4x4xf32>
    %129 = stablehlo.compare EQ, %118, %119, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_47 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %130 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %131 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %132 = stablehlo.select %129, %130, %131 : tensor<4x4xi1>, tensor<4x4xf32>
    %133 = stablehlo.compare EQ, %117, %119, FLOAT : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xi1>
    %cst_49 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %134 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %cst_50 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %135 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %136 = stablehlo.select %133, %134, %135 : tensor<4x4xi1>, tensor<4x4xf32>
    %137 = stablehlo.divide %132, %136 : tensor<4x4xf32>
    %138 = stablehlo.slice %arg0 [0:4, 0:1] : (tensor<4x9xf32>) -> tensor<4x1xf32>
    %139 = stablehlo.concatenate %138, %119, dim = 1 : (tensor<4x1xf32>, tensor<4x4xf32>) -> tensor<4x5xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %140 = stablehlo.pad %139, %cst_51, low = [0, 0], high = [0, 0], interior = [0, 1] : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x9xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %141 = stablehlo.pad %117, %cst_52, low = [0, 1], high = [0, 1], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %142 = stablehlo.add %140, %141 : tensor<4x9xf32>
    %143 = stablehlo.slice %arg0 [0:3:2, 0:9] : (tensor<4x9xf32>) -> tensor<2x9xf32>
    %144 = stablehlo.slice %arg0 [1:4:2, 0:9] : (tensor<4x9xf32>) -> tensor<2x9xf32>
    %145 = stablehlo.minimum %143, %144 : tensor<2x9xf32>
    %146 = stablehlo.compare EQ, %143, %145, FLOAT : (tensor<2x9xf32>, tensor<2x9xf32>) -> tensor<2x9xi1>
    %cst_53 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %148 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %149 = stablehlo.select %146, %147, %148 : tensor<2x9xi1>, tensor<2x9xf32>
    %150 = stablehlo.compare EQ, %144, %145, FLOAT : (tensor<2x9xf32>, tensor<2x9xf32>) -> tensor<2x9xi1>
    %cst_55 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %151 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %cst_56 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %152 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %153 = stablehlo.select %150, %151, %152 : tensor<2x9xi1>, tensor<2x9xf32>
    %154 = stablehlo.divide %149, %153 : tensor<2x9xf32>
    %155 = stablehlo.compare EQ, %144, %145, FLOAT : (tensor<2x9xf32>, tensor<2x9xf32>) -> tensor<2x9xi1>
    %cst_57 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %156 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %cst_58 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %157 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %158 = stablehlo.select %155, %156, %157 : tensor<2x9xi1>, tensor<2x9xf32>
    %159 = stablehlo.compare EQ, %143, %145, FLOAT : (tensor<2x9xf32>, tensor<2x9xf32>) -> tensor<2x9xi1>
    %cst_59 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %160 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %cst_60 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %161 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %162 = stablehlo.select %159, %160, %161 : tensor<2x9xi1>, tensor<2x9xf32>
    %163 = stablehlo.divide %158, %162 : tensor<2x9xf32>
    %164 = stablehlo.slice %145 [0:1:2, 0:9] : (tensor<2x9xf32>) -> tensor<1x9xf32>
    %165 = stablehlo.slice %145 [1:2:2, 0:9] : (tensor<2x9xf32>) -> tensor<1x9xf32>
    %166 = stablehlo.minimum %164, %165 : tensor<1x9xf32>
    %167 = stablehlo.compare EQ, %164, %166, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_61 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %168 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %170 = stablehlo.select %167, %168, %169 : tensor<1x9xi1>, tensor<1x9xf32>
    %171 = stablehlo.compare EQ, %165, %166, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_63 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %172 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_64 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %173 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %174 = stablehlo.select %171, %172, %173 : tensor<1x9xi1>, tensor<1x9xf32>
    %175 = stablehlo.divide %170, %174 : tensor<1x9xf32>
    %176 = stablehlo.compare EQ, %165, %166, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_65 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %177 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %178 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %179 = stablehlo.select %176, %177, %178 : tensor<1x9xi1>, tensor<1x9xf32>
    %180 = stablehlo.compare EQ, %164, %166, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_67 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %181 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_68 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %182 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %183 = stablehlo.select %180, %181, %182 : tensor<1x9xi1>, tensor<1x9xf32>
    %184 = stablehlo.divide %179, %183 : tensor<1x9xf32>
    %185 = stablehlo.slice %166 [0:0, 0:9] : (tensor<1x9xf32>) -> tensor<0x9xf32>
    %186 = stablehlo.slice %145 [2:2:2, 0:9] : (tensor<2x9xf32>) -> tensor<0x9xf32>
    %187 = stablehlo.minimum %185, %186 : tensor<0x9xf32>
    %188 = stablehlo.compare EQ, %185, %187, FLOAT : (tensor<0x9xf32>, tensor<0x9xf32>) -> tensor<0x9xi1>
    %cst_69 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_69, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %190 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %191 = stablehlo.select %188, %189, %190 : tensor<0x9xi1>, tensor<0x9xf32>
    %192 = stablehlo.compare EQ, %186, %187, FLOAT : (tensor<0x9xf32>, tensor<0x9xf32>) -> tensor<0x9xi1>
    %cst_71 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %193 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %cst_72 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %194 = stablehlo.broadcast_in_dim %cst_72, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %195 = stablehlo.select %192, %193, %194 : tensor<0x9xi1>, tensor<0x9xf32>
    %196 = stablehlo.divide %191, %195 : tensor<0x9xf32>
    %197 = stablehlo.compare EQ, %186, %187, FLOAT : (tensor<0x9xf32>, tensor<0x9xf32>) -> tensor<0x9xi1>
    %cst_73 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %198 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %cst_74 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %200 = stablehlo.select %197, %198, %199 : tensor<0x9xi1>, tensor<0x9xf32>
    %201 = stablehlo.compare EQ, %185, %187, FLOAT : (tensor<0x9xf32>, tensor<0x9xf32>) -> tensor<0x9xi1>
    %cst_75 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %202 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %cst_76 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %203 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f32>) -> tensor<0x9xf32>
    %204 = stablehlo.select %201, %202, %203 : tensor<0x9xi1>, tensor<0x9xf32>
    %205 = stablehlo.divide %200, %204 : tensor<0x9xf32>
    %206 = stablehlo.slice %145 [0:1, 0:9] : (tensor<2x9xf32>) -> tensor<1x9xf32>
    %207 = stablehlo.concatenate %206, %187, dim = 0 : (tensor<1x9xf32>, tensor<0x9xf32>) -> tensor<1x9xf32>
    %cst_77 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %208 = stablehlo.pad %207, %cst_77, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %209 = stablehlo.pad %166, %cst_78, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %210 = stablehlo.add %208, %209 : tensor<2x9xf32>
    %211 = stablehlo.slice %210 [0:1, 0:9] : (tensor<2x9xf32>) -> tensor<1x9xf32>
    %212 = stablehlo.slice %arg0 [2:4:2, 0:9] : (tensor<4x9xf32>) -> tensor<1x9xf32>
    %213 = stablehlo.minimum %211, %212 : tensor<1x9xf32>
    %214 = stablehlo.compare EQ, %211, %213, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_79 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %216 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %217 = stablehlo.select %214, %215, %216 : tensor<1x9xi1>, tensor<1x9xf32>
    %218 = stablehlo.compare EQ, %212, %213, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_81 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %219 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_82 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %220 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %221 = stablehlo.select %218, %219, %220 : tensor<1x9xi1>, tensor<1x9xf32>
    %222 = stablehlo.divide %217, %221 : tensor<1x9xf32>
    %223 = stablehlo.compare EQ, %212, %213, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_83 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %224 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_84 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %225 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %226 = stablehlo.select %223, %224, %225 : tensor<1x9xi1>, tensor<1x9xf32>
    %227 = stablehlo.compare EQ, %211, %213, FLOAT : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<1x9xi1>
    %cst_85 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %228 = stablehlo.broadcast_in_dim %cst_85, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %cst_86 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %229 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f32>) -> tensor<1x9xf32>
    %230 = stablehlo.select %227, %228, %229 : tensor<1x9xi1>, tensor<1x9xf32>
    %231 = stablehlo.divide %226, %230 : tensor<1x9xf32>
    %232 = stablehlo.slice %arg0 [0:1, 0:9] : (tensor<4x9xf32>) -> tensor<1x9xf32>
    %233 = stablehlo.concatenate %232, %213, dim = 0 : (tensor<1x9xf32>, tensor<1x9xf32>) -> tensor<2x9xf32>
    %cst_87 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %234 = stablehlo.pad %233, %cst_87, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<2x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %cst_88 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %235 = stablehlo.pad %210, %cst_88, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<2x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %236 = stablehlo.add %234, %235 : tensor<4x9xf32>
    %cst_89 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %237 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f32>) -> tensor<f32>
    %238 = "stablehlo.reduce_window"(%arg0, %237) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %379 = stablehlo.minimum %arg1, %arg2 : tensor<f32>
      stablehlo.return %379 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<f32>) -> tensor<3x4xf32>
    %239 = stablehlo.multiply %0, %0 : tensor<4x9xf32>
    %cst_90 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %240 = stablehlo.reduce(%239 init: %cst_90) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %cst_91 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %241 = stablehlo.multiply %240, %cst_91 : tensor<f32>
    %242 = stablehlo.tanh %2 : tensor<4x9xf32>
    %cst_92 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %243 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %244 = stablehlo.subtract %243, %242 : tensor<4x9xf32>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %245 = stablehlo.reduce(%242 init: %cst_93) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %246 = stablehlo.add %241, %245 : tensor<f32>
    %cst_94 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %247 = stablehlo.reduce(%142 init: %cst_94) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %248 = stablehlo.add %246, %247 : tensor<f32>
    %249 = stablehlo.multiply %236, %236 : tensor<4x9xf32>
    %cst_95 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %250 = stablehlo.reduce(%249 init: %cst_95) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %251 = stablehlo.add %248, %250 : tensor<f32>
    %252 = stablehlo.multiply %238, %238 : tensor<3x4xf32>
    %253 = stablehlo.multiply %252, %238 : tensor<3x4xf32>
    %254 = stablehlo.multiply %238, %238 : tensor<3x4xf32>
    %cst_96 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %255 = stablehlo.broadcast_in_dim %cst_96, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %256 = stablehlo.multiply %255, %254 : tensor<3x4xf32>
    %cst_97 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %257 = stablehlo.reduce(%253 init: %cst_97) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %258 = stablehlo.add %251, %257 : tensor<f32>
    %cst_98 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %259 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %260 = stablehlo.multiply %259, %256 : tensor<3x4xf32>
    %cst_99 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %261 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %262 = stablehlo.multiply %236, %261 : tensor<4x9xf32>
    %263 = stablehlo.multiply %261, %236 : tensor<4x9xf32>
    %264 = stablehlo.add %262, %263 : tensor<4x9xf32>
    %cst_100 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %265 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %cst_101 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %266 = stablehlo.broadcast_in_dim %cst_101, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %267 = stablehlo.multiply %266, %244 : tensor<4x9xf32>
    %268 = stablehlo.multiply %267, %242 : tensor<4x9xf32>
    %269 = stablehlo.add %267, %268 : tensor<4x9xf32>
    %cst_102 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_103 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %270 = stablehlo.multiply %cst_102, %cst_103 : tensor<f32>
    %271 = stablehlo.broadcast_in_dim %270, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %272 = stablehlo.multiply %0, %271 : tensor<4x9xf32>
    %273 = stablehlo.multiply %271, %0 : tensor<4x9xf32>
    %274 = stablehlo.add %272, %273 : tensor<4x9xf32>
    %cst_104 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %275 = stablehlo.pad %arg0, %cst_104, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %276 = "stablehlo.select_and_scatter"(%275, %260, %cst_105) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %379 = stablehlo.compare LE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %379 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %379 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %379 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<3x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %277 = stablehlo.slice %276 [0:4, 0:9] : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %cst_106 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %278 = stablehlo.pad %264, %cst_106, low = [-1, 0], high = [0, 0], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<3x9xf32>
    %279 = stablehlo.slice %278 [0:3:2, 0:9] : (tensor<3x9xf32>) -> tensor<2x9xf32>
    %cst_107 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %280 = stablehlo.pad %264, %cst_107, low = [0, 0], high = [-1, 0], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<3x9xf32>
    %281 = stablehlo.slice %280 [0:3:2, 0:9] : (tensor<3x9xf32>) -> tensor<2x9xf32>
    %282 = stablehlo.slice %281 [0:1, 0:9] : (tensor<2x9xf32>) -> tensor<1x9xf32>
    %283 = stablehlo.slice %281 [1:2, 0:9] : (tensor<2x9xf32>) -> tensor<1x9xf32>
    %cst_108 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %284 = stablehlo.pad %282, %cst_108, low = [0, 0], high = [3, 0], interior = [0, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %285 = stablehlo.add %277, %284 : tensor<4x9xf32>
    %286 = stablehlo.multiply %283, %231 : tensor<1x9xf32>
    %287 = stablehlo.multiply %283, %222 : tensor<1x9xf32>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %288 = stablehlo.pad %286, %cst_109, low = [2, 0], high = [1, 0], interior = [1, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %289 = stablehlo.add %285, %288 : tensor<4x9xf32>
    %cst_110 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %290 = stablehlo.pad %287, %cst_110, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %291 = stablehlo.add %279, %290 : tensor<2x9xf32>
    %cst_111 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %292 = stablehlo.pad %291, %cst_111, low = [-1, 0], high = [0, 0], interior = [0, 0] : (tensor<2x9xf32>, tensor<f32>) -> tensor<1x9xf32>
    %293 = stablehlo.slice %292 [0:1:2, 0:9] : (tensor<1x9xf32>) -> tensor<1x9xf32>
    %cst_112 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %294 = stablehlo.pad %291, %cst_112, low = [0, 0], high = [-1, 0], interior = [0, 0] : (tensor<2x9xf32>, tensor<f32>) -> tensor<1x9xf32>
    %295 = stablehlo.slice %294 [0:1:2, 0:9] : (tensor<1x9xf32>) -> tensor<1x9xf32>
    %296 = stablehlo.slice %295 [0:1, 0:9] : (tensor<1x9xf32>) -> tensor<1x9xf32>
    %297 = stablehlo.slice %295 [1:1, 0:9] : (tensor<1x9xf32>) -> tensor<0x9xf32>
    %cst_113 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %298 = stablehlo.pad %296, %cst_113, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %299 = stablehlo.multiply %297, %205 : tensor<0x9xf32>
    %300 = stablehlo.multiply %297, %196 : tensor<0x9xf32>
    %cst_114 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %301 = stablehlo.pad %299, %cst_114, low = [2, 0], high = [0, 0], interior = [1, 0] : (tensor<0x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %302 = stablehlo.add %298, %301 : tensor<2x9xf32>
    %cst_115 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %303 = stablehlo.pad %300, %cst_115, low = [0, 0], high = [1, 0], interior = [0, 0] : (tensor<0x9xf32>, tensor<f32>) -> tensor<1x9xf32>
    %304 = stablehlo.add %293, %303 : tensor<1x9xf32>
    %305 = stablehlo.multiply %304, %184 : tensor<1x9xf32>
    %306 = stablehlo.multiply %304, %175 : tensor<1x9xf32>
    %cst_116 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %307 = stablehlo.pad %305, %cst_116, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %308 = stablehlo.add %302, %307 : tensor<2x9xf32>
    %cst_117 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %309 = stablehlo.pad %306, %cst_117, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<1x9xf32>, tensor<f32>) -> tensor<2x9xf32>
    %310 = stablehlo.add %308, %309 : tensor<2x9xf32>
    %311 = stablehlo.multiply %310, %163 : tensor<2x9xf32>
    %312 = stablehlo.multiply %310, %154 : tensor<2x9xf32>
    %cst_118 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %313 = stablehlo.pad %311, %cst_118, low = [1, 0], high = [0, 0], interior = [1, 0] : (tensor<2x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %314 = stablehlo.add %289, %313 : tensor<4x9xf32>
    %cst_119 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %315 = stablehlo.pad %312, %cst_119, low = [0, 0], high = [1, 0], interior = [1, 0] : (tensor<2x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %316 = stablehlo.add %314, %315 : tensor<4x9xf32>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %317 = stablehlo.pad %265, %cst_120, low = [0, -1], high = [0, -1], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x7xf32>
    %318 = stablehlo.slice %317 [0:4, 0:7:2] : (tensor<4x7xf32>) -> tensor<4x4xf32>
    %cst_121 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %319 = stablehlo.pad %265, %cst_121, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %320 = stablehlo.slice %319 [0:4, 0:9:2] : (tensor<4x9xf32>) -> tensor<4x5xf32>
    %321 = stablehlo.slice %320 [0:4, 0:1] : (tensor<4x5xf32>) -> tensor<4x1xf32>
    %322 = stablehlo.slice %320 [0:4, 1:5] : (tensor<4x5xf32>) -> tensor<4x4xf32>
    %cst_122 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %323 = stablehlo.pad %321, %cst_122, low = [0, 0], high = [0, 8], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x9xf32>
    %324 = stablehlo.add %316, %323 : tensor<4x9xf32>
    %325 = stablehlo.multiply %322, %137 : tensor<4x4xf32>
    %326 = stablehlo.multiply %322, %128 : tensor<4x4xf32>
    %327 = stablehlo.add %318, %326 : tensor<4x4xf32>
    %cst_123 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %328 = stablehlo.pad %325, %cst_123, low = [0, 2], high = [0, 0], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %329 = stablehlo.add %324, %328 : tensor<4x9xf32>
    %cst_124 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %330 = stablehlo.pad %327, %cst_124, low = [0, -1], high = [0, 0], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x3xf32>
    %331 = stablehlo.slice %330 [0:4, 0:3:2] : (tensor<4x3xf32>) -> tensor<4x2xf32>
    %cst_125 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %332 = stablehlo.pad %327, %cst_125, low = [0, 0], high = [0, -1], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x3xf32>
    %333 = stablehlo.slice %332 [0:4, 0:3:2] : (tensor<4x3xf32>) -> tensor<4x2xf32>
    %334 = stablehlo.slice %333 [0:4, 0:1] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %335 = stablehlo.slice %333 [0:4, 1:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %336 = stablehlo.pad %334, %cst_126, low = [0, 0], high = [0, 3], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x4xf32>
    %337 = stablehlo.multiply %335, %112 : tensor<4x1xf32>
    %338 = stablehlo.multiply %335, %103 : tensor<4x1xf32>
    %cst_127 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %339 = stablehlo.pad %337, %cst_127, low = [0, 2], high = [0, 1], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x4xf32>
    %340 = stablehlo.add %336, %339 : tensor<4x4xf32>
    %cst_128 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %341 = stablehlo.pad %338, %cst_128, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %342 = stablehlo.add %331, %341 : tensor<4x2xf32>
    %cst_129 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %343 = stablehlo.pad %342, %cst_129, low = [0, -1], high = [0, 0], interior = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x1xf32>
    %344 = stablehlo.slice %343 [0:4, 0:1:2] : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %cst_130 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %345 = stablehlo.pad %342, %cst_130, low = [0, 0], high = [0, -1], interior = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x1xf32>
    %346 = stablehlo.slice %345 [0:4, 0:1:2] : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %347 = stablehlo.slice %346 [0:4, 0:1] : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %348 = stablehlo.slice %346 [0:4, 1:1] : (tensor<4x1xf32>) -> tensor<4x0xf32>
    %cst_131 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %349 = stablehlo.pad %347, %cst_131, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %350 = stablehlo.multiply %348, %86 : tensor<4x0xf32>
    %351 = stablehlo.multiply %348, %77 : tensor<4x0xf32>
    %cst_132 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %352 = stablehlo.pad %350, %cst_132, low = [0, 2], high = [0, 0], interior = [0, 1] : (tensor<4x0xf32>, tensor<f32>) -> tensor<4x2xf32>
    %353 = stablehlo.add %349, %352 : tensor<4x2xf32>
    %cst_133 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %354 = stablehlo.pad %351, %cst_133, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x0xf32>, tensor<f32>) -> tensor<4x1xf32>
    %355 = stablehlo.add %344, %354 : tensor<4x1xf32>
    %356 = stablehlo.multiply %355, %65 : tensor<4x1xf32>
    %357 = stablehlo.multiply %355, %56 : tensor<4x1xf32>
    %cst_134 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %358 = stablehlo.pad %356, %cst_134, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %359 = stablehlo.add %353, %358 : tensor<4x2xf32>
    %cst_135 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %360 = stablehlo.pad %357, %cst_135, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %361 = stablehlo.add %359, %360 : tensor<4x2xf32>
    %362 = stablehlo.multiply %361, %44 : tensor<4x2xf32>
    %363 = stablehlo.multiply %361, %35 : tensor<4x2xf32>
    %cst_136 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %364 = stablehlo.pad %362, %cst_136, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    %365 = stablehlo.add %340, %364 : tensor<4x4xf32>
    %cst_137 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %366 = stablehlo.pad %363, %cst_137, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    %367 = stablehlo.add %365, %366 : tensor<4x4xf32>
    %368 = stablehlo.multiply %367, %23 : tensor<4x4xf32>
    %369 = stablehlo.multiply %367, %14 : tensor<4x4xf32>
    %cst_138 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %370 = stablehlo.pad %368, %cst_138, low = [0, 1], high = [0, 1], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %371 = stablehlo.add %329, %370 : tensor<4x9xf32>
    %cst_139 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %372 = stablehlo.pad %369, %cst_139, low = [0, 0], high = [0, 2], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %373 = stablehlo.add %371, %372 : tensor<4x9xf32>
    %374 = call @cumsum_3(%269) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %375 = stablehlo.reverse %374, dims = [1] : tensor<4x9xf32>
    %376 = stablehlo.add %373, %375 : tensor<4x9xf32>
    %377 = call @cumsum_5(%274) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %378 = stablehlo.add %376, %377 : tensor<4x9xf32>
    return %258, %378 : tensor<f32>, tensor<4x9xf32>
  }
  func.func private @cumsum(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    return %0 : tensor<4x9xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [8, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 9>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    return %1 : tensor<4x9xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %0 = call @cumsum_2(%arg0) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    return %0 : tensor<4x9xf32>
  }
  func.func private @cumsum_2(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[3, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 4, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    return %1 : tensor<4x9xf32>
  }
  func.func private @cumsum_3(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %0 = call @cumsum_4(%arg0) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    return %0 : tensor<4x9xf32>
  }
  func.func private @cumsum_4(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 3], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 4, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    return %1 : tensor<4x9xf32>
  }
  func.func private @cumsum_5(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %0 = call @cumsum_6(%arg0) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    return %0 : tensor<4x9xf32>
  }
  func.func private @cumsum_6(%arg0: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 8]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 9>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    return %1 : tensor<4x9xf32>
  }
}
