module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf32>) -> (tensor<2x5x5xf32> {jax.result_info = "result[0]"}, tensor<2x5x5xf32> {jax.result_info = "result[1]"}, tensor<2x5x5xf32> {jax.result_info = "result[2]"}) {
    %0:2 = call @hessenberg(%arg0) : (tensor<2x5x5xf32>) -> (tensor<2x5x5xf32>, tensor<2x5x5xf32>)
    %1 = stablehlo.dot_general %0#1, %0#0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf32>, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %2 = stablehlo.transpose %0#1, dims = [0, 2, 1] : (tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %3 = stablehlo.dot_general %1, %2, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf32>, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %4 = stablehlo.subtract %3, %arg0 : tensor<2x5x5xf32>
    %5 = stablehlo.transpose %0#1, dims = [0, 2, 1] : (tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %6 = stablehlo.dot_general %5, %0#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf32>, tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    return %0#0, %4, %6 : tensor<2x5x5xf32>, tensor<2x5x5xf32>, tensor<2x5x5xf32>
  }
  func.func private @hessenberg(%arg0: tensor<2x5x5xf32>) -> (tensor<2x5x5xf32>, tensor<2x5x5xf32>) {
    %0:3 = stablehlo.custom_call @lapack_sgehrd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {high = 5 : i32, low = 1 : i32}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=5, k=5, l=5, m=5, n=4}, custom>} : (tensor<2x5x5xf32>) -> (tensor<2x5x5xf32>, tensor<2x4xf32>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#2, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<2x5x5xi1>, tensor<2x5x5xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x4xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<2x4xi1>, tensor<2x4xf32>
    %11 = call @triu(%6) : (tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %12 = stablehlo.slice %6 [0:2, 1:5, 0:4] : (tensor<2x5x5xf32>) -> tensor<2x4x4xf32>
    %13 = stablehlo.custom_call @lapack_sorgqr_ffi(%12, %10) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, m, n]) {i=2, j=4, k=4, l=4, m=4, n=4}, custom>} : (tensor<2x4x4xf32>, tensor<2x4xf32>) -> tensor<2x4x4xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %17 = call @block(%14, %15, %16, %13) : (tensor<1x1xf32>, tensor<1x4xf32>, tensor<4x1xf32>, tensor<2x4x4xf32>) -> tensor<2x5x5xf32>
    return %11, %17 : tensor<2x5x5xf32>, tensor<2x5x5xf32>
  }
  func.func private @triu(%arg0: tensor<2x5x5xf32>) -> tensor<2x5x5xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c = stablehlo.constant dense<-2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi32>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %6 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %7 = stablehlo.broadcast_in_dim %5, dims = [1, 2] : (tensor<5x5xf32>) -> tensor<2x5x5xf32>
    %8 = stablehlo.select %6, %7, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xf32>
    return %8 : tensor<2x5x5xf32>
  }
  func.func private @block(%arg0: tensor<1x1xf32>, %arg1: tensor<1x4xf32>, %arg2: tensor<4x1xf32>, %arg3: tensor<2x4x4xf32>) -> tensor<2x5x5xf32> {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 1 : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x5xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [1, 2] : (tensor<4x1xf32>) -> tensor<2x4x1xf32>
    %2 = stablehlo.concatenate %1, %arg3, dim = 2 : (tensor<2x4x1xf32>, tensor<2x4x4xf32>) -> tensor<2x4x5xf32>
    %3 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<1x5xf32>) -> tensor<2x1x5xf32>
    %4 = stablehlo.concatenate %3, %2, dim = 1 : (tensor<2x1x5xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
    return %4 : tensor<2x5x5xf32>
  }
}
