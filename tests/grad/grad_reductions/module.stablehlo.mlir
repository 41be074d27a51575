module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6x7xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<5x6x7xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<5x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<5x6xf32>) -> tensor<5x6x1xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<5x6x1xf32>) -> tensor<5x6x7xf32>
    %3 = stablehlo.compare EQ, %arg0, %2, FLOAT : (tensor<5x6x7xf32>, tensor<5x6x7xf32>) -> tensor<5x6x7xi1>
    %4 = stablehlo.convert %3 : (tensor<5x6x7xi1>) -> tensor<5x6x7xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_0) applies stablehlo.add across dimensions = [2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<5x6xf32>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %6 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.minimum across dimensions = [0, 2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<6xf32>
    %7 = stablehlo.reshape %6 : (tensor<6xf32>) -> tensor<1x6x1xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<1x6x1xf32>) -> tensor<5x6x7xf32>
    %9 = stablehlo.compare EQ, %arg0, %8, FLOAT : (tensor<5x6x7xf32>, tensor<5x6x7xf32>) -> tensor<5x6x7xi1>
    %10 = stablehlo.convert %9 : (tensor<5x6x7xi1>) -> tensor<5x6x7xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [0, 2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %12 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.maximum across dimensions = [1] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    %13 = stablehlo.reshape %12 : (tensor<5x7xf32>) -> tensor<5x1x7xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<5x1x7xf32>) -> tensor<5x6x7xf32>
    %15 = stablehlo.compare EQ, %arg0, %14, FLOAT : (tensor<5x6x7xf32>, tensor<5x6x7xf32>) -> tensor<5x6x7xi1>
    %16 = stablehlo.convert %15 : (tensor<5x6x7xi1>) -> tensor<5x6x7xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %19 = stablehlo.maximum %18, %12 : tensor<5x7xf32>
    %20 = stablehlo.compare EQ, %12, %19, FLOAT : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %23 = stablehlo.select %20, %21, %22 : tensor<5x7xi1>, tensor<5x7xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %25 = stablehlo.compare EQ, %24, %19, FLOAT : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xi1>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %28 = stablehlo.select %25, %26, %27 : tensor<5x7xi1>, tensor<5x7xf32>
    %29 = stablehlo.divide %23, %28 : tensor<5x7xf32>
    %30 = stablehlo.is_finite %19 : (tensor<5x7xf32>) -> tensor<5x7xi1>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %32 = stablehlo.select %30, %19, %31 : tensor<5x7xi1>, tensor<5x7xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [0, 2] : (tensor<5x7xf32>) -> tensor<5x1x7xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<5x1x7xf32>) -> tensor<5x6x7xf32>
    %36 = stablehlo.subtract %arg0, %35 : tensor<5x6x7xf32>
    %37 = stablehlo.exponential %36 : tensor<5x6x7xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%37 init: %cst_13) applies stablehlo.add across dimensions = [1] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<5x7xf32>
    %39 = stablehlo.sign %38 : tensor<5x7xf32>
    %40 = stablehlo.abs %38 : tensor<5x7xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %42 = stablehlo.compare GE, %38, %41, FLOAT : (tensor<5x7xf32>, tensor<5x7xf32>) -> tensor<5x7xi1>
    %43 = stablehlo.log %40 : tensor<5x7xf32>
    %44 = stablehlo.add %43, %32 : tensor<5x7xf32>
    %45 = stablehlo.multiply %0, %0 : tensor<5x6xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.reduce(%45 init: %cst_15) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x6xf32>, tensor<f32>) -> tensor<f32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%6 init: %cst_16) applies stablehlo.add across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
    %48 = stablehlo.add %46, %47 : tensor<f32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%44 init: %cst_17) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x7xf32>, tensor<f32>) -> tensor<f32>
    %cst_18 = stablehlo.constant dense<3.500000e+01> : tensor<f32>
    %50 = stablehlo.divide %49, %cst_18 : tensor<f32>
    %51 = stablehlo.add %48, %50 : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %52:5 = call @_var(%arg0, %c) : (tensor<5x6x7xf32>, tensor<i32>) -> (tensor<f32>, tensor<5x6x7xf32>, tensor<f32>, tensor<i1>, tensor<f32>)
    %53 = stablehlo.add %51, %52#0 : tensor<f32>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %54 = call @_var_0(%52#1, %52#2, %52#3, %52#4, %cst_19) : (tensor<5x6x7xf32>, tensor<f32>, tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<5x6x7xf32>
    %cst_20 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_21 = stablehlo.constant dense<3.500000e+01> : tensor<f32>
    %55 = stablehlo.divide %cst_20, %cst_21 : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %59 = stablehlo.multiply %0, %58 : tensor<5x6xf32>
    %60 = stablehlo.multiply %58, %0 : tensor<5x6xf32>
    %61 = stablehlo.add %59, %60 : tensor<5x6xf32>
    %62 = stablehlo.divide %56, %40 : tensor<5x7xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
    %64 = stablehlo.select %42, %63, %62 : tensor<5x7xi1>, tensor<5x7xf32>
    %65 = stablehlo.select %42, %62, %63 : tensor<5x7xi1>, tensor<5x7xf32>
    %66 = stablehlo.negate %64 : tensor<5x7xf32>
    %67 = stablehlo.add %65, %66 : tensor<5x7xf32>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 2] : (tensor<5x7xf32>) -> tensor<5x6x7xf32>
    %69 = stablehlo.multiply %68, %37 : tensor<5x6x7xf32>
    %70 = stablehlo.add %54, %69 : tensor<5x6x7xf32>
    %71 = stablehlo.divide %57, %11 : tensor<6xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [1] : (tensor<6xf32>) -> tensor<5x6x7xf32>
    %73 = stablehlo.multiply %72, %10 : tensor<5x6x7xf32>
    %74 = stablehlo.add %70, %73 : tensor<5x6x7xf32>
    %75 = stablehlo.divide %61, %5 : tensor<5x6xf32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<5x6xf32>) -> tensor<5x6x7xf32>
    %77 = stablehlo.multiply %76, %4 : tensor<5x6x7xf32>
    %78 = stablehlo.add %74, %77 : tensor<5x6x7xf32>
    return %53, %78 : tensor<f32>, tensor<5x6x7xf32>
  }
  func.func private @_var(%arg0: tensor<5x6x7xf32>, %arg1: tensor<i32>) -> (tensor<f32>, tensor<5x6x7xf32>, tensor<f32>, tensor<i1>, tensor<f32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %cst_0 = stablehlo.constant dense<2.100000e+02> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x1x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<5x6x7xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<5x6x7xf32>
    %6 = chlo.square %5 : tensor<5x6x7xf32> -> tensor<5x6x7xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x6x7xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<5x6x7xf32>
    %9 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<2.100000e+02> : tensor<f32>
    %10 = stablehlo.subtract %cst_2, %9 : tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%6 init: %cst_3) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<f32>
    %12 = stablehlo.divide %11, %10 : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.compare GT, %10, %cst_4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_5 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14:2 = call @_where(%13, %12, %cst_5) : (tensor<i1>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
    return %14#0, %8, %10, %13, %14#1 : tensor<f32>, tensor<5x6x7xf32>, tensor<f32>, tensor<i1>, tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<i1>, tensor<f32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    return %1, %cst : tensor<f32>, tensor<f32>
  }
  func.func private @_var_0(%arg0: tensor<5x6x7xf32>, %arg1: tensor<f32>, %arg2: tensor<i1>, %arg3: tensor<f32>, %arg4: tensor<f32>) -> tensor<5x6x7xf32> {
    %0 = call @_where_1(%arg2, %arg3, %arg4) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.divide %0, %arg1 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<5x6x7xf32>
    %3 = stablehlo.multiply %2, %arg0 : tensor<5x6x7xf32>
    %4 = stablehlo.negate %3 : tensor<5x6x7xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<5x6x7xf32>, tensor<f32>) -> tensor<f32>
    %6 = stablehlo.reshape %5 : (tensor<f32>) -> tensor<1x1x1xf32>
    %cst_0 = stablehlo.constant dense<2.100000e+02> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x1x1xf32>
    %8 = stablehlo.divide %6, %7 : tensor<1x1x1xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%8 init: %cst_1) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<f32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<5x6x7xf32>
    %11 = stablehlo.add %3, %10 : tensor<5x6x7xf32>
    return %11 : tensor<5x6x7xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.select %arg0, %arg2, %cst : tensor<i1>, tensor<f32>
    return %0 : tensor<f32>
  }
}
