module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<169xf32>, %arg1: tensor<169xf32>, %arg2: tensor<169xi32>) -> (tensor<169xf32> {jax.result_info = "result[0]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[8]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[9]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[10]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[11]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[12]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[13]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[14]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[15]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[16]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[17]"}, tensor<169xi1> {jax.result_info = "result[18]"}, tensor<169xi1> {jax.result_info = "result[19]"}, tensor<169xf32> {jax.result_info = "result[20]"}, tensor<169xf32> {jax.result_info = "result[21]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[22]"}, tensor<169xcomplex<f32>> {jax.result_info = "result[23]"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<169xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<169xi32>
    %2 = stablehlo.compare LT, %arg2, %1, SIGNED : (tensor<169xi32>, tensor<169xi32>) -> tensor<169xi1>
    %c_0 = stablehlo.constant dense<169> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<169xi32>
    %4 = stablehlo.add %arg2, %3 : tensor<169xi32>
    %5 = stablehlo.select %2, %4, %arg2 : tensor<169xi1>, tensor<169xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<169xi32>) -> tensor<169x1xi32>
    %7 = "stablehlo.gather"(%0, %6) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<169xcomplex<f32>>, tensor<169x1xi32>) -> tensor<169xcomplex<f32>>
    %8 = stablehlo.real %7 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %9 = stablehlo.is_finite %8 : (tensor<169xf32>) -> tensor<169xi1>
    %10 = stablehlo.abs %8 : tensor<169xf32>
    %cst = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %12 = stablehlo.compare GT, %10, %11, FLOAT : (tensor<169xf32>, tensor<169xf32>) -> tensor<169xi1>
    %13 = stablehlo.and %9, %12 : tensor<169xi1>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %14 = call @_where(%13, %cst_1, %8) : (tensor<169xi1>, tensor<f32>, tensor<169xf32>) -> tensor<169xf32>
    %15 = stablehlo.imag %7 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %16 = stablehlo.is_finite %15 : (tensor<169xf32>) -> tensor<169xi1>
    %17 = stablehlo.abs %15 : tensor<169xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %19 = stablehlo.compare GT, %17, %18, FLOAT : (tensor<169xf32>, tensor<169xf32>) -> tensor<169xi1>
    %20 = stablehlo.and %16, %19 : tensor<169xi1>
    %cst_3 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %21 = call @_where(%20, %cst_3, %15) : (tensor<169xi1>, tensor<f32>, tensor<169xf32>) -> tensor<169xf32>
    %22 = stablehlo.complex %14, %21 : tensor<169xcomplex<f32>>
    %23 = stablehlo.power %0, %22 : tensor<169xcomplex<f32>>
    %24 = stablehlo.abs %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %25 = stablehlo.sign %0 : tensor<169xcomplex<f32>>
    %26 = stablehlo.exponential %0 : tensor<169xcomplex<f32>>
    %27 = stablehlo.exponential_minus_one %0 : tensor<169xcomplex<f32>>
    %28 = stablehlo.log %0 : tensor<169xcomplex<f32>>
    %29 = stablehlo.log_plus_one %0 : tensor<169xcomplex<f32>>
    %30 = stablehlo.sqrt %0 : tensor<169xcomplex<f32>>
    %31 = stablehlo.rsqrt %0 : tensor<169xcomplex<f32>>
    %32 = stablehlo.real %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %33 = stablehlo.imag %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %35 = stablehlo.compare EQ, %32, %34, FLOAT : (tensor<169xf32>, tensor<169xf32>) -> tensor<169xi1>
    %36 = stablehlo.sine %32 : tensor<169xf32>
    %37 = stablehlo.cosine %32 : tensor<169xf32>
    %38 = stablehlo.exponential_minus_one %33 : tensor<169xf32>
    %39 = stablehlo.negate %33 : tensor<169xf32>
    %40 = stablehlo.exponential_minus_one %39 : tensor<169xf32>
    %41 = stablehlo.subtract %38, %40 : tensor<169xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %43 = stablehlo.divide %41, %42 : tensor<169xf32>
    %44 = stablehlo.add %38, %40 : tensor<169xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %46 = stablehlo.add %44, %45 : tensor<169xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %48 = stablehlo.divide %46, %47 : tensor<169xf32>
    %49 = stablehlo.multiply %36, %48 : tensor<169xf32>
    %50 = stablehlo.multiply %37, %43 : tensor<169xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %52 = stablehlo.complex %51, %50 : tensor<169xcomplex<f32>>
    %53 = stablehlo.complex %49, %50 : tensor<169xcomplex<f32>>
    %54 = stablehlo.select %35, %52, %53 : tensor<169xi1>, tensor<169xcomplex<f32>>
    %55 = stablehlo.real %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %56 = stablehlo.imag %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %58 = stablehlo.compare EQ, %55, %57, FLOAT : (tensor<169xf32>, tensor<169xf32>) -> tensor<169xi1>
    %59 = stablehlo.sine %55 : tensor<169xf32>
    %60 = stablehlo.cosine %55 : tensor<169xf32>
    %61 = stablehlo.exponential_minus_one %56 : tensor<169xf32>
    %62 = stablehlo.negate %56 : tensor<169xf32>
    %63 = stablehlo.exponential_minus_one %62 : tensor<169xf32>
    %64 = stablehlo.subtract %61, %63 : tensor<169xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %66 = stablehlo.divide %64, %65 : tensor<169xf32>
    %67 = stablehlo.add %61, %63 : tensor<169xf32>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %69 = stablehlo.add %67, %68 : tensor<169xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %71 = stablehlo.divide %69, %70 : tensor<169xf32>
    %72 = stablehlo.multiply %60, %71 : tensor<169xf32>
    %73 = stablehlo.negate %59 : tensor<169xf32>
    %74 = stablehlo.multiply %73, %66 : tensor<169xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %76 = stablehlo.complex %72, %75 : tensor<169xcomplex<f32>>
    %77 = stablehlo.complex %72, %74 : tensor<169xcomplex<f32>>
    %78 = stablehlo.select %58, %76, %77 : tensor<169xi1>, tensor<169xcomplex<f32>>
    %79 = stablehlo.tan %0 : tensor<169xcomplex<f32>>
    %80 = stablehlo.tanh %0 : tensor<169xcomplex<f32>>
    %81 = stablehlo.multiply %0, %7 : tensor<169xcomplex<f32>>
    %82 = stablehlo.divide %0, %7 : tensor<169xcomplex<f32>>
    %83 = stablehlo.add %0, %7 : tensor<169xcomplex<f32>>
    %84 = stablehlo.subtract %0, %7 : tensor<169xcomplex<f32>>
    %85 = stablehlo.negate %0 : tensor<169xcomplex<f32>>
    %86 = stablehlo.compare EQ, %0, %7, FLOAT : (tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>) -> tensor<169xi1>
    %87 = stablehlo.compare NE, %0, %7, FLOAT : (tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>) -> tensor<169xi1>
    %88 = stablehlo.real %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %89 = stablehlo.imag %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %90 = stablehlo.real %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %91 = stablehlo.imag %0 : (tensor<169xcomplex<f32>>) -> tensor<169xf32>
    %92 = stablehlo.negate %91 : tensor<169xf32>
    %93 = stablehlo.complex %90, %92 : tensor<169xcomplex<f32>>
    return %24, %25, %26, %27, %28, %29, %30, %31, %54, %78, %79, %80, %81, %82, %23, %83, %84, %85, %86, %87, %88, %89, %93, %0 : tensor<169xf32>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>, tensor<169xi1>, tensor<169xi1>, tensor<169xf32>, tensor<169xf32>, tensor<169xcomplex<f32>>, tensor<169xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<169xi1>, %arg1: tensor<f32>, %arg2: tensor<169xf32>) -> tensor<169xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<169xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<169xi1>, tensor<169xf32>
    return %2 : tensor<169xf32>
  }
}
