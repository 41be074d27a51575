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
    %143 = stablehlo.multiply %0, %0 : tensor<4x9xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %144 = stablehlo.reduce(%143 init: %cst_53) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %cst_54 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %145 = stablehlo.multiply %144, %cst_54 : tensor<f32>
    %146 = stablehlo.tanh %2 : tensor<4x9xf32>
    %cst_55 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %148 = stablehlo.subtract %147, %146 : tensor<4x9xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %149 = stablehlo.reduce(%146 init: %cst_56) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %150 = stablehlo.add %145, %149 : tensor<f32>
    %cst_57 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %151 = stablehlo.reduce(%142 init: %cst_57) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x9xf32>, tensor<f32>) -> tensor<f32>
    %152 = stablehlo.add %150, %151 : tensor<f32>
    %cst_58 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %153 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %cst_59 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %154 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %155 = stablehlo.multiply %154, %148 : tensor<4x9xf32>
    %156 = stablehlo.multiply %155, %146 : tensor<4x9xf32>
    %157 = stablehlo.add %155, %156 : tensor<4x9xf32>
    %cst_60 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_61 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %158 = stablehlo.multiply %cst_60, %cst_61 : tensor<f32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %160 = stablehlo.multiply %0, %159 : tensor<4x9xf32>
    %161 = stablehlo.multiply %159, %0 : tensor<4x9xf32>
    %162 = stablehlo.add %160, %161 : tensor<4x9xf32>
    %cst_62 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %163 = stablehlo.pad %153, %cst_62, low = [0, -1], high = [0, -1], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x7xf32>
    %164 = stablehlo.slice %163 [0:4, 0:7:2] : (tensor<4x7xf32>) -> tensor<4x4xf32>
    %cst_63 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %165 = stablehlo.pad %153, %cst_63, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x9xf32>, tensor<f32>) -> tensor<4x9xf32>
    %166 = stablehlo.slice %165 [0:4, 0:9:2] : (tensor<4x9xf32>) -> tensor<4x5xf32>
    %167 = stablehlo.slice %166 [0:4, 0:1] : (tensor<4x5xf32>) -> tensor<4x1xf32>
    %168 = stablehlo.slice %166 [0:4, 1:5] : (tensor<4x5xf32>) -> tensor<4x4xf32>
    %cst_64 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %169 = stablehlo.pad %167, %cst_64, low = [0, 0], high = [0, 8], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x9xf32>
    %170 = stablehlo.multiply %168, %137 : tensor<4x4xf32>
    %171 = stablehlo.multiply %168, %128 : tensor<4x4xf32>
    %172 = stablehlo.add %164, %171 : tensor<4x4xf32>
    %cst_65 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %173 = stablehlo.pad %170, %cst_65, low = [0, 2], high = [0, 0], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %174 = stablehlo.add %169, %173 : tensor<4x9xf32>
    %cst_66 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %175 = stablehlo.pad %172, %cst_66, low = [0, -1], high = [0, 0], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x3xf32>
    %176 = stablehlo.slice %175 [0:4, 0:3:2] : (tensor<4x3xf32>) -> tensor<4x2xf32>
    %cst_67 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %177 = stablehlo.pad %172, %cst_67, low = [0, 0], high = [0, -1], interior = [0, 0] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x3xf32>
    %178 = stablehlo.slice %177 [0:4, 0:3:2] : (tensor<4x3xf32>) -> tensor<4x2xf32>
    %179 = stablehlo.slice %178 [0:4, 0:1] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %180 = stablehlo.slice %178 [0:4, 1:2] : (tensor<4x2xf32>) -> tensor<4x1xf32>
    %cst_68 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %181 = stablehlo.pad %179, %cst_68, low = [0, 0], high = [0, 3], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x4xf32>
    %182 = stablehlo.multiply %180, %112 : tensor<4x1xf32>
    %183 = stablehlo.multiply %180, %103 : tensor<4x1xf32>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %184 = stablehlo.pad %182, %cst_69, low = [0, 2], high = [0, 1], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x4xf32>
    %185 = stablehlo.add %181, %184 : tensor<4x4xf32>
    %cst_70 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %186 = stablehlo.pad %183, %cst_70, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %187 = stablehlo.add %176, %186 : tensor<4x2xf32>
    %cst_71 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %188 = stablehlo.pad %187, %cst_71, low = [0, -1], high = [0, 0], interior = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x1xf32>
    %189 = stablehlo.slice %188 [0:4, 0:1:2] : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %cst_72 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %190 = stablehlo.pad %187, %cst_72, low = [0, 0], high = [0, -1], interior = [0, 0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x1xf32>
    %191 = stablehlo.slice %190 [0:4, 0:1:2] : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %192 = stablehlo.slice %191 [0:4, 0:1] : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %193 = stablehlo.slice %191 [0:4, 1:1] : (tensor<4x1xf32>) -> tensor<4x0xf32>
    %cst_73 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %194 = stablehlo.pad %192, %cst_73, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %195 = stablehlo.multiply %193, %86 : tensor<4x0xf32>
    %196 = stablehlo.multiply %193, %77 : tensor<4x0xf32>
    %cst_74 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %197 = stablehlo.pad %195, %cst_74, low = [0, 2], high = [0, 0], interior = [0, 1] : (tensor<4x0xf32>, tensor<f32>) -> tensor<4x2xf32>
    %198 = stablehlo.add %194, %197 : tensor<4x2xf32>
    %cst_75 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %199 = stablehlo.pad %196, %cst_75, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<4x0xf32>, tensor<f32>) -> tensor<4x1xf32>
    %200 = stablehlo.add %189, %199 : tensor<4x1xf32>
    %201 = stablehlo.multiply %200, %65 : tensor<4x1xf32>
    %202 = stablehlo.multiply %200, %56 : tensor<4x1xf32>
    %cst_76 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %203 = stablehlo.pad %201, %cst_76, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %204 = stablehlo.add %198, %203 : tensor<4x2xf32>
    %cst_77 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.pad %202, %cst_77, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x2xf32>
    %206 = stablehlo.add %204, %205 : tensor<4x2xf32>
    %207 = stablehlo.multiply %206, %44 : tensor<4x2xf32>
    %208 = stablehlo.multiply %206, %35 : tensor<4x2xf32>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %209 = stablehlo.pad %207, %cst_78, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    %210 = stablehlo.add %185, %209 : tensor<4x4xf32>
    %cst_79 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %211 = stablehlo.pad %208, %cst_79, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x4xf32>
    %212 = stablehlo.add %210, %211 : tensor<4x4xf32>
    %213 = stablehlo.multiply %212, %23 : tensor<4x4xf32>
    %214 = stablehlo.multiply %212, %14 : tensor<4x4xf32>
    %cst_80 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %215 = stablehlo.pad %213, %cst_80, low = [0, 1], high = [0, 1], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %216 = stablehlo.add %174, %215 : tensor<4x9xf32>
    %cst_81 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %217 = stablehlo.pad %214, %cst_81, low = [0, 0], high = [0, 2], interior = [0, 1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4x9xf32>
    %218 = stablehlo.add %216, %217 : tensor<4x9xf32>
    %219 = call @cumsum_3(%157) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %220 = stablehlo.reverse %219, dims = [1] : tensor<4x9xf32>
    %221 = stablehlo.add %218, %220 : tensor<4x9xf32>
    %222 = call @cumsum_5(%162) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %223 = stablehlo.add %221, %222 : tensor<4x9xf32>
    return %152, %223 : tensor<f32>, tensor<4x9xf32>
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
