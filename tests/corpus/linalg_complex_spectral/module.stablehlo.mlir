module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf32>, %arg1: tensor<2x5x5xf32>, %arg2: tensor<5x5xf32>) -> (tensor<2x5xf32> {jax.result_info = "result[0]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<2x5xf32> {jax.result_info = "result[3]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<2x5x5xf32> {jax.result_info = "result[5]"}, tensor<2x5xf32> {jax.result_info = "result[6]"}, tensor<2x5xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[8]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[9]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[10]"}, tensor<2x5xcomplex<f32>> {jax.result_info = "result[11]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[12]"}, tensor<2x5x5xcomplex<f32>> {jax.result_info = "result[13]"}, tensor<5x5xcomplex<f32>> {jax.result_info = "result[14]"}, tensor<5x5xcomplex<f32>> {jax.result_info = "result[15]"}) {
    %cst = stablehlo.constant dense<[[5.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e+00]]> : tensor<5x5xf32>
    %cst_0 = stablehlo.constant dense<[[5.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 5.000000e+00]]> : tensor<5x5xf32>
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %1 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %3 = stablehlo.add %0, %2 : tensor<5x5xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %5 = stablehlo.convert %4 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %6 = stablehlo.complex %arg0, %arg1 : tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.real %6 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %8 = stablehlo.imag %6 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %9 = stablehlo.negate %8 : tensor<2x5x5xf32>
    %10 = stablehlo.complex %7, %9 : tensor<2x5x5xcomplex<f32>>
    %11 = stablehlo.transpose %10, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %12 = stablehlo.add %6, %11 : tensor<2x5x5xcomplex<f32>>
    %13:2 = call @eigh(%12) : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>)
    %14:3 = call @svd(%6) : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>)
    %15:4 = stablehlo.custom_call @lapack_cgeev_ffi(%6) {backend_config = "", mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 86 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l], [i, m, n], [i, o, p], [i]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5, p=5}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xi32>)
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %17 = stablehlo.compare EQ, %15#3, %16, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst_2 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %19 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<2x5xcomplex<f32>>
    %20 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x5xi1>
    %21 = stablehlo.select %20, %15#0, %19 : tensor<2x5xi1>, tensor<2x5xcomplex<f32>>
    %22 = stablehlo.broadcast_in_dim %17, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_3 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %23 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %24 = stablehlo.broadcast_in_dim %22, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %25 = stablehlo.select %24, %15#2, %23 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %26:2 = call @_schur(%6) : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>)
    %27:2 = call @hessenberg(%6) : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>)
    %28 = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %29 = stablehlo.dot_general %arg2, %28, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %30 = stablehlo.add %29, %cst : tensor<5x5xf32>
    %31 = call @_sqrtm(%30) : (tensor<5x5xf32>) -> tensor<5x5xcomplex<f32>>
    %32 = stablehlo.broadcast_in_dim %13#0, dims = [0, 2] : (tensor<2x5xf32>) -> tensor<2x1x5xf32>
    %33 = stablehlo.convert %32 : (tensor<2x1x5xf32>) -> tensor<2x1x5xcomplex<f32>>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<2x1x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %35 = stablehlo.multiply %13#1, %34 : tensor<2x5x5xcomplex<f32>>
    %36 = stablehlo.real %13#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %37 = stablehlo.imag %13#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %38 = stablehlo.negate %37 : tensor<2x5x5xf32>
    %39 = stablehlo.complex %36, %38 : tensor<2x5x5xcomplex<f32>>
    %40 = stablehlo.transpose %39, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %41 = stablehlo.dot_general %35, %40, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %42 = stablehlo.subtract %41, %12 : tensor<2x5x5xcomplex<f32>>
    %43 = stablehlo.real %13#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %44 = stablehlo.imag %13#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %45 = stablehlo.negate %44 : tensor<2x5x5xf32>
    %46 = stablehlo.complex %43, %45 : tensor<2x5x5xcomplex<f32>>
    %47 = stablehlo.transpose %46, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %48 = stablehlo.dot_general %47, %13#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %49 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %51 = stablehlo.subtract %48, %50 : tensor<2x5x5xcomplex<f32>>
    %52 = stablehlo.broadcast_in_dim %14#1, dims = [0, 2] : (tensor<2x5xf32>) -> tensor<2x1x5xf32>
    %53 = stablehlo.convert %52 : (tensor<2x1x5xf32>) -> tensor<2x1x5xcomplex<f32>>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<2x1x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %55 = stablehlo.multiply %14#0, %54 : tensor<2x5x5xcomplex<f32>>
    %56 = stablehlo.dot_general %55, %14#2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %57 = stablehlo.subtract %56, %6 : tensor<2x5x5xcomplex<f32>>
    %58 = stablehlo.dot_general %6, %25, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %59 = stablehlo.broadcast_in_dim %21, dims = [0, 2] : (tensor<2x5xcomplex<f32>>) -> tensor<2x1x5xcomplex<f32>>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2] : (tensor<2x1x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %61 = stablehlo.multiply %25, %60 : tensor<2x5x5xcomplex<f32>>
    %62 = stablehlo.subtract %58, %61 : tensor<2x5x5xcomplex<f32>>
    %63 = stablehlo.abs %62 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %64 = call @norm(%25) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xf32>
    %65 = call @sort(%21) : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    %66 = stablehlo.dot_general %26#1, %26#0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %67 = stablehlo.real %26#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %68 = stablehlo.imag %26#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %69 = stablehlo.negate %68 : tensor<2x5x5xf32>
    %70 = stablehlo.complex %67, %69 : tensor<2x5x5xcomplex<f32>>
    %71 = stablehlo.transpose %70, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %72 = stablehlo.dot_general %66, %71, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %73 = stablehlo.subtract %72, %6 : tensor<2x5x5xcomplex<f32>>
    %74 = stablehlo.real %26#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %75 = stablehlo.imag %26#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %76 = stablehlo.negate %75 : tensor<2x5x5xf32>
    %77 = stablehlo.complex %74, %76 : tensor<2x5x5xcomplex<f32>>
    %78 = stablehlo.transpose %77, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %79 = stablehlo.dot_general %78, %26#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %80 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %82 = stablehlo.subtract %79, %81 : tensor<2x5x5xcomplex<f32>>
    %83 = call @tril(%26#0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %84 = call @diagonal_3(%26#0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    %85 = call @sort(%84) : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    %86 = stablehlo.dot_general %27#1, %27#0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %87 = stablehlo.real %27#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %88 = stablehlo.imag %27#1 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %89 = stablehlo.negate %88 : tensor<2x5x5xf32>
    %90 = stablehlo.complex %87, %89 : tensor<2x5x5xcomplex<f32>>
    %91 = stablehlo.transpose %90, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %92 = stablehlo.dot_general %86, %91, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %93 = stablehlo.subtract %92, %6 : tensor<2x5x5xcomplex<f32>>
    %94 = call @tril_4(%27#0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %95 = stablehlo.dot_general %31, %31, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %96 = stablehlo.transpose %arg2, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %97 = stablehlo.dot_general %arg2, %96, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %98 = stablehlo.add %97, %cst_0 : tensor<5x5xf32>
    %99 = stablehlo.convert %98 : (tensor<5x5xf32>) -> tensor<5x5xcomplex<f32>>
    %100 = stablehlo.subtract %95, %99 : tensor<5x5xcomplex<f32>>
    return %13#0, %42, %51, %14#1, %57, %63, %64, %65, %73, %82, %83, %85, %93, %94, %100, %31 : tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xf32>, tensor<2x5xf32>, tensor<2x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>
  }
  func.func private @eigh(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>) {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %2 = stablehlo.imag %0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %3 = stablehlo.negate %2 : tensor<2x5x5xf32>
    %4 = stablehlo.complex %1, %3 : tensor<2x5x5xcomplex<f32>>
    %5 = stablehlo.add %arg0, %4 : tensor<2x5x5xcomplex<f32>>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.divide %5, %6 : tensor<2x5x5xcomplex<f32>>
    %8:3 = stablehlo.custom_call @lapack_cheevd_ffi(%7) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=5, k=5, l=5, m=5, n=5}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5xf32>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %10 = stablehlo.compare EQ, %8#2, %9, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %14 = stablehlo.select %13, %8#0, %12 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %15 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %17 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x5xi1>
    %18 = stablehlo.select %17, %8#1, %16 : tensor<2x5xi1>, tensor<2x5xf32>
    return %18, %14 : tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>
  }
  func.func private @svd(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>) {
    %0:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 83 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i, o, p], [i, q, r], [i]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5, p=5, q=5, r=5}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x5xi1>
    %6 = stablehlo.select %5, %0#1, %4 : tensor<2x5xi1>, tensor<2x5xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %0#2, %8 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %11 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_1 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %14 = stablehlo.select %13, %0#3, %12 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %10, %6, %14 : tensor<2x5x5xcomplex<f32>>, tensor<2x5xf32>, tensor<2x5x5xcomplex<f32>>
  }
  func.func private @_schur(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) {
    %0:5 = stablehlo.custom_call @lapack_cgees_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n, o], [i, p], [i], [i]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5, p=5}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2x5xcomplex<f32>>, tensor<2xi32>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %6, %10 : tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>
  }
  func.func private @hessenberg(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) {
    %0:3 = stablehlo.custom_call @lapack_cgehrd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {high = 5 : i32, low = 1 : i32}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=5, k=5, l=5, m=5, n=4}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x4xcomplex<f32>>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#2, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x4xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x4xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<2x4xi1>, tensor<2x4xcomplex<f32>>
    %11 = call @triu(%6) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %12 = stablehlo.slice %6 [0:2, 1:5, 0:4] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x4x4xcomplex<f32>>
    %13 = stablehlo.custom_call @lapack_cungqr_ffi(%12, %10) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, m, n]) {i=2, j=4, k=4, l=4, m=4, n=4}, custom>} : (tensor<2x4x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>) -> tensor<2x4x4xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f32>>) -> tensor<1x1xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<1x4xcomplex<f32>>
    %cst_3 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<complex<f32>>) -> tensor<4x1xcomplex<f32>>
    %17 = call @block(%14, %15, %16, %13) : (tensor<1x1xcomplex<f32>>, tensor<1x4xcomplex<f32>>, tensor<4x1xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %11, %17 : tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>
  }
  func.func private @triu(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c = stablehlo.constant dense<-2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi32>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %6 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %7 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %8 = stablehlo.select %6, %7, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %8 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @block(%arg0: tensor<1x1xcomplex<f32>>, %arg1: tensor<1x4xcomplex<f32>>, %arg2: tensor<4x1xcomplex<f32>>, %arg3: tensor<2x4x4xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<1x1xcomplex<f32>>, tensor<1x4xcomplex<f32>>) -> tensor<1x5xcomplex<f32>>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1, 2] : (tensor<4x1xcomplex<f32>>) -> tensor<2x4x1xcomplex<f32>>
    %2 = stablehlo.concatenate %1, %arg3, dim = 2 : (tensor<2x4x1xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>) -> tensor<2x4x5xcomplex<f32>>
    %3 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<1x5xcomplex<f32>>) -> tensor<2x1x5xcomplex<f32>>
    %4 = stablehlo.concatenate %3, %2, dim = 1 : (tensor<2x1x5xcomplex<f32>>, tensor<2x4x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %4 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @_sqrtm(%arg0: tensor<5x5xf32>) -> tensor<5x5xcomplex<f32>> {
    %0:2 = call @_schur_0(%arg0) : (tensor<5x5xf32>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>)
    %1 = call @_sqrtm_triu(%0#0) : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %2 = stablehlo.dot_general %0#1, %1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %3 = stablehlo.transpose %0#1, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %4 = stablehlo.real %3 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %5 = stablehlo.imag %3 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %6 = stablehlo.negate %5 : tensor<5x5xf32>
    %7 = stablehlo.complex %4, %6 : tensor<5x5xcomplex<f32>>
    %8 = stablehlo.dot_general %2, %7, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    return %8 : tensor<5x5xcomplex<f32>>
  }
  func.func private @_schur_0(%arg0: tensor<5x5xf32>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) {
    %0 = stablehlo.convert %arg0 : (tensor<5x5xf32>) -> tensor<5x5xcomplex<f32>>
    %1:5 = stablehlo.custom_call @lapack_cgees_ffi(%0) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m, n], [o], [], []) {i=5, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<i32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %3 = stablehlo.compare EQ, %1#4, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %7 = stablehlo.select %6, %1#0, %5 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    %8 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %11 = stablehlo.select %10, %1#1, %9 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    return %7, %11 : tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>
  }
  func.func private @_sqrtm_triu(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>> {
    %0 = call @_diag(%arg0) : (tensor<5x5xcomplex<f32>>) -> tensor<5xcomplex<f32>>
    %1 = stablehlo.sqrt %0 : tensor<5xcomplex<f32>>
    %2 = call @_diag_1(%1) : (tensor<5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3:5 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %1, %iterArg_2 = %c_0, %iterArg_3 = %c, %iterArg_4 = %2) : tensor<5x5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<5x5xcomplex<f32>>
    cond {
      %c_5 = stablehlo.constant dense<5> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_2, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4:2 = func.call @closed_call(%iterArg, %iterArg_1, %iterArg_3, %iterArg_4) : (tensor<5x5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<i32>, tensor<5x5xcomplex<f32>>) -> (tensor<i32>, tensor<5x5xcomplex<f32>>)
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_2, %c_5 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %5, %4#0, %4#1 : tensor<5x5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<5x5xcomplex<f32>>
    }
    return %3#4 : tensor<5x5xcomplex<f32>>
  }
  func.func private @_diag(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<5xcomplex<f32>> {
    %0 = call @diagonal(%arg0) : (tensor<5x5xcomplex<f32>>) -> tensor<5xcomplex<f32>>
    return %0 : tensor<5xcomplex<f32>>
  }
  func.func private @diagonal(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %1 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %3 = stablehlo.add %0, %2 : tensor<5x5xi32>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %5 = stablehlo.convert %4 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %6 = "stablehlo.case"(%c_0) ({
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      stablehlo.return %c_1 : tensor<i32>
    }, {
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      stablehlo.return %c_1 : tensor<i32>
    }) : (tensor<i32>) -> tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %8 = stablehlo.iota dim = 0 : tensor<5xi32>
      %9 = stablehlo.iota dim = 0 : tensor<5xi32>
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %10 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5xi32>
      %11 = stablehlo.compare LT, %8, %10, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
      %c_2 = stablehlo.constant dense<5> : tensor<i32>
      %12 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
      %13 = stablehlo.add %8, %12 : tensor<5xi32>
      %14 = stablehlo.select %11, %13, %8 : tensor<5xi1>, tensor<5xi32>
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %15 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5xi32>
      %16 = stablehlo.compare LT, %9, %15, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
      %c_4 = stablehlo.constant dense<5> : tensor<i32>
      %17 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<5xi32>
      %18 = stablehlo.add %9, %17 : tensor<5xi32>
      %19 = stablehlo.select %16, %18, %9 : tensor<5xi1>, tensor<5xi32>
      %20 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
      %21 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
      %22 = stablehlo.concatenate %20, %21, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
      %23 = "stablehlo.gather"(%arg0, %22) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<5x5xcomplex<f32>>, tensor<5x2xi32>) -> tensor<5xcomplex<f32>>
      stablehlo.return %23 : tensor<5xcomplex<f32>>
    }) : (tensor<i32>) -> tensor<5xcomplex<f32>>
    return %7 : tensor<5xcomplex<f32>>
  }
  func.func private @_diag_1(%arg0: tensor<5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>> {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.pad %arg0, %cst, low = [0], high = [0], interior = [0] : (tensor<5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<5xcomplex<f32>>
    %1 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %2 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %4 = stablehlo.add %1, %3 : tensor<5x5xi32>
    %5 = stablehlo.compare EQ, %4, %2, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %6 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<5xcomplex<f32>>) -> tensor<5x1xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %7 = call @_where(%5, %6, %cst_0) : (tensor<5x5xi1>, tensor<5x1xcomplex<f32>>, tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    return %7 : tensor<5x5xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<5x5xi1>, %arg1: tensor<5x1xcomplex<f32>>, %arg2: tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<5x1xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    return %2 : tensor<5x5xcomplex<f32>>
  }
  func.func private @closed_call(%arg0: tensor<5x5xcomplex<f32>>, %arg1: tensor<5xcomplex<f32>>, %arg2: tensor<i32>, %arg3: tensor<5x5xcomplex<f32>>) -> (tensor<i32>, tensor<5x5xcomplex<f32>>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:6 = stablehlo.while(%iterArg = %arg2, %iterArg_1 = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_0, %iterArg_4 = %arg2, %iterArg_5 = %arg3) : tensor<i32>, tensor<5x5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<5x5xcomplex<f32>>
    cond {
      %2 = stablehlo.compare LT, %iterArg_3, %iterArg_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.subtract %iterArg, %c_7 : tensor<i32>
      %4 = stablehlo.subtract %3, %iterArg_3 : tensor<i32>
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %4, %c_8 : tensor<i32>
      %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %6:6 = stablehlo.while(%iterArg_26 = %4, %iterArg_27 = %iterArg_5, %iterArg_28 = %iterArg, %iterArg_29 = %5, %iterArg_30 = %iterArg, %iterArg_31 = %cst) : tensor<i32>, tensor<5x5xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<complex<f32>>
      cond {
        %56 = stablehlo.compare LT, %iterArg_29, %iterArg_30, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %56 : tensor<i1>
      } do {
        %c_32 = stablehlo.constant dense<1> : tensor<i32>
        %56 = stablehlo.add %iterArg_29, %c_32 : tensor<i32>
        %57 = stablehlo.convert %iterArg_26 : tensor<i32>
        %58 = stablehlo.convert %iterArg_29 : tensor<i32>
        %c_33 = stablehlo.constant dense<0> : tensor<i32>
        %59 = stablehlo.compare LT, %57, %c_33, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_34 = stablehlo.constant dense<5> : tensor<i32>
        %60 = stablehlo.add %57, %c_34 : tensor<i32>
        %61 = stablehlo.select %59, %60, %57 : tensor<i1>, tensor<i32>
        %c_35 = stablehlo.constant dense<0> : tensor<i32>
        %62 = stablehlo.compare LT, %58, %c_35, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_36 = stablehlo.constant dense<5> : tensor<i32>
        %63 = stablehlo.add %58, %c_36 : tensor<i32>
        %64 = stablehlo.select %62, %63, %58 : tensor<i1>, tensor<i32>
        %65 = stablehlo.dynamic_slice %iterArg_27, %61, %64, sizes = [1, 1] : (tensor<5x5xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f32>>
        %66 = stablehlo.reshape %65 : (tensor<1x1xcomplex<f32>>) -> tensor<complex<f32>>
        %67 = stablehlo.convert %iterArg_29 : tensor<i32>
        %68 = stablehlo.convert %iterArg_28 : tensor<i32>
        %c_37 = stablehlo.constant dense<0> : tensor<i32>
        %69 = stablehlo.compare LT, %67, %c_37, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_38 = stablehlo.constant dense<5> : tensor<i32>
        %70 = stablehlo.add %67, %c_38 : tensor<i32>
        %71 = stablehlo.select %69, %70, %67 : tensor<i1>, tensor<i32>
        %c_39 = stablehlo.constant dense<0> : tensor<i32>
        %72 = stablehlo.compare LT, %68, %c_39, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_40 = stablehlo.constant dense<5> : tensor<i32>
        %73 = stablehlo.add %68, %c_40 : tensor<i32>
        %74 = stablehlo.select %72, %73, %68 : tensor<i1>, tensor<i32>
        %75 = stablehlo.dynamic_slice %iterArg_27, %71, %74, sizes = [1, 1] : (tensor<5x5xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f32>>
        %76 = stablehlo.reshape %75 : (tensor<1x1xcomplex<f32>>) -> tensor<complex<f32>>
        %77 = stablehlo.multiply %66, %76 : tensor<complex<f32>>
        %78 = stablehlo.add %iterArg_31, %77 : tensor<complex<f32>>
        stablehlo.return %iterArg_26, %iterArg_27, %iterArg_28, %56, %iterArg_30, %78 : tensor<i32>, tensor<5x5xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<complex<f32>>
      }
      %7 = stablehlo.convert %4 : tensor<i32>
      %8 = stablehlo.convert %iterArg : tensor<i32>
      %c_9 = stablehlo.constant dense<0> : tensor<i32>
      %9 = stablehlo.compare LT, %7, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_10 = stablehlo.constant dense<5> : tensor<i32>
      %10 = stablehlo.add %7, %c_10 : tensor<i32>
      %11 = stablehlo.select %9, %10, %7 : tensor<i1>, tensor<i32>
      %c_11 = stablehlo.constant dense<0> : tensor<i32>
      %12 = stablehlo.compare LT, %8, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %13 = stablehlo.add %8, %c_12 : tensor<i32>
      %14 = stablehlo.select %12, %13, %8 : tensor<i1>, tensor<i32>
      %15 = stablehlo.dynamic_slice %iterArg_1, %11, %14, sizes = [1, 1] : (tensor<5x5xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f32>>
      %16 = stablehlo.reshape %15 : (tensor<1x1xcomplex<f32>>) -> tensor<complex<f32>>
      %17 = stablehlo.compare EQ, %16, %6#5, FLOAT : (tensor<complex<f32>>, tensor<complex<f32>>) -> tensor<i1>
      %18 = stablehlo.convert %4 : tensor<i32>
      %19 = stablehlo.convert %iterArg : tensor<i32>
      %c_13 = stablehlo.constant dense<0> : tensor<i32>
      %20 = stablehlo.compare LT, %18, %c_13, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_14 = stablehlo.constant dense<5> : tensor<i32>
      %21 = stablehlo.add %18, %c_14 : tensor<i32>
      %22 = stablehlo.select %20, %21, %18 : tensor<i1>, tensor<i32>
      %c_15 = stablehlo.constant dense<0> : tensor<i32>
      %23 = stablehlo.compare LT, %19, %c_15, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_16 = stablehlo.constant dense<5> : tensor<i32>
      %24 = stablehlo.add %19, %c_16 : tensor<i32>
      %25 = stablehlo.select %23, %24, %19 : tensor<i1>, tensor<i32>
      %26 = stablehlo.dynamic_slice %iterArg_1, %22, %25, sizes = [1, 1] : (tensor<5x5xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f32>>
      %27 = stablehlo.reshape %26 : (tensor<1x1xcomplex<f32>>) -> tensor<complex<f32>>
      %28 = stablehlo.subtract %27, %6#5 : tensor<complex<f32>>
      %c_17 = stablehlo.constant dense<0> : tensor<i32>
      %29 = stablehlo.compare LT, %4, %c_17, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %30 = stablehlo.convert %4 : tensor<i32>
      %c_18 = stablehlo.constant dense<5> : tensor<i32>
      %31 = stablehlo.add %30, %c_18 : tensor<i32>
      %32 = stablehlo.select %29, %31, %4 : tensor<i1>, tensor<i32>
      %33 = stablehlo.dynamic_slice %iterArg_2, %32, sizes = [1] : (tensor<5xcomplex<f32>>, tensor<i32>) -> tensor<1xcomplex<f32>>
      %34 = stablehlo.reshape %33 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
      %c_19 = stablehlo.constant dense<0> : tensor<i32>
      %35 = stablehlo.compare LT, %iterArg, %c_19, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %36 = stablehlo.convert %iterArg : tensor<i32>
      %c_20 = stablehlo.constant dense<5> : tensor<i32>
      %37 = stablehlo.add %36, %c_20 : tensor<i32>
      %38 = stablehlo.select %35, %37, %iterArg : tensor<i1>, tensor<i32>
      %39 = stablehlo.dynamic_slice %iterArg_2, %38, sizes = [1] : (tensor<5xcomplex<f32>>, tensor<i32>) -> tensor<1xcomplex<f32>>
      %40 = stablehlo.reshape %39 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
      %41 = stablehlo.add %34, %40 : tensor<complex<f32>>
      %42 = stablehlo.divide %28, %41 : tensor<complex<f32>>
      %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %43 = func.call @_where_2(%17, %cst_21, %42) : (tensor<i1>, tensor<f32>, tensor<complex<f32>>) -> tensor<complex<f32>>
      %c_22 = stablehlo.constant dense<0> : tensor<i32>
      %44 = stablehlo.compare LT, %4, %c_22, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_23 = stablehlo.constant dense<5> : tensor<i32>
      %45 = stablehlo.add %4, %c_23 : tensor<i32>
      %46 = stablehlo.select %44, %45, %4 : tensor<i1>, tensor<i32>
      %c_24 = stablehlo.constant dense<0> : tensor<i32>
      %47 = stablehlo.compare LT, %iterArg, %c_24, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_25 = stablehlo.constant dense<5> : tensor<i32>
      %48 = stablehlo.add %iterArg, %c_25 : tensor<i32>
      %49 = stablehlo.select %47, %48, %iterArg : tensor<i1>, tensor<i32>
      %50 = stablehlo.convert %46 : tensor<i32>
      %51 = stablehlo.convert %49 : tensor<i32>
      %52 = stablehlo.broadcast_in_dim %50, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %53 = stablehlo.broadcast_in_dim %51, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %54 = stablehlo.concatenate %52, %53, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %55 = "stablehlo.scatter"(%iterArg_5, %54, %43) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1]>, unique_indices = true}> ({
      ^bb0(%arg4: tensor<complex<f32>>, %arg5: tensor<complex<f32>>):
        stablehlo.return %arg5 : tensor<complex<f32>>
      }) : (tensor<5x5xcomplex<f32>>, tensor<2xi32>, tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %2, %iterArg_4, %55 : tensor<i32>, tensor<5x5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<5x5xcomplex<f32>>
    }
    return %0, %1#5 : tensor<i32>, tensor<5x5xcomplex<f32>>
  }
  func.func private @_where_2(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<complex<f32>>) -> tensor<complex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<f32>) -> tensor<complex<f32>>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<complex<f32>>
    return %1 : tensor<complex<f32>>
  }
  func.func private @norm(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xf32> {
    %0 = stablehlo.real %arg0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %1 = stablehlo.imag %arg0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %2 = stablehlo.negate %1 : tensor<2x5x5xf32>
    %3 = stablehlo.complex %0, %2 : tensor<2x5x5xcomplex<f32>>
    %4 = stablehlo.multiply %arg0, %3 : tensor<2x5x5xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %7 = stablehlo.sqrt %6 : tensor<2x5xf32>
    return %7 : tensor<2x5xf32>
  }
  func.func private @sort(%arg0: tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<complex<f32>>, %arg2: tensor<complex<f32>>):
      %1 = stablehlo.real %arg1 : (tensor<complex<f32>>) -> tensor<f32>
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %1, %1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %6 = stablehlo.imag %arg1 : (tensor<complex<f32>>) -> tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.compare EQ, %6, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %8 = stablehlo.select %7, %cst_3, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare NE, %6, %6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %10 = stablehlo.select %9, %cst_4, %8 : tensor<i1>, tensor<f32>
      %11 = stablehlo.real %arg2 : (tensor<complex<f32>>) -> tensor<f32>
      %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.compare EQ, %11, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %13 = stablehlo.select %12, %cst_6, %11 : tensor<i1>, tensor<f32>
      %14 = stablehlo.compare NE, %11, %11, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_7 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %15 = stablehlo.select %14, %cst_7, %13 : tensor<i1>, tensor<f32>
      %16 = stablehlo.imag %arg2 : (tensor<complex<f32>>) -> tensor<f32>
      %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %17 = stablehlo.compare EQ, %16, %cst_8, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %18 = stablehlo.select %17, %cst_9, %16 : tensor<i1>, tensor<f32>
      %19 = stablehlo.compare NE, %16, %16, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_10 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %20 = stablehlo.select %19, %cst_10, %18 : tensor<i1>, tensor<f32>
      %21 = stablehlo.compare LT, %10, %20, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %22 = stablehlo.compare LT, %5, %15, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %23 = stablehlo.compare EQ, %5, %15, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %24 = stablehlo.and %23, %21 : tensor<i1>
      %25 = stablehlo.or %22, %24 : tensor<i1>
      stablehlo.return %25 : tensor<i1>
    }) : (tensor<2x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>>
    return %0 : tensor<2x5xcomplex<f32>>
  }
  func.func private @tril(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi32>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.select %5, %arg0, %6 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %7 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @diagonal_3(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<5xi32>
    %1 = stablehlo.iota dim = 0 : tensor<5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %3 = stablehlo.compare LT, %0, %2, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %5 = stablehlo.add %0, %4 : tensor<5xi32>
    %6 = stablehlo.select %3, %5, %0 : tensor<5xi1>, tensor<5xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %8 = stablehlo.compare LT, %1, %7, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %10 = stablehlo.add %1, %9 : tensor<5xi32>
    %11 = stablehlo.select %8, %10, %1 : tensor<5xi1>, tensor<5xi32>
    %12 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %15 = "stablehlo.gather"(%arg0, %14) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1, 2], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1, 1>}> : (tensor<2x5x5xcomplex<f32>>, tensor<5x2xi32>) -> tensor<2x5xcomplex<f32>>
    return %15 : tensor<2x5xcomplex<f32>>
  }
  func.func private @tril_4(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c = stablehlo.constant dense<-2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi32>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.select %5, %arg0, %6 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %7 : tensor<2x5x5xcomplex<f32>>
  }
}
