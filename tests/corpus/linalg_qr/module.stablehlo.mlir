module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x6x4xf32>) -> (tensor<2x4x6xf32> {jax.result_info = "result[0]"}, tensor<2x4xf32> {jax.result_info = "result[1]"}, tensor<2x6x4xf32> {jax.result_info = "result[2]"}, tensor<2x4x4xf32> {jax.result_info = "result[3]"}, tensor<2x6x4xf32> {jax.result_info = "result[4]"}, tensor<2x6x4xf32> {jax.result_info = "result[5]"}, tensor<2x6x6xf32> {jax.result_info = "result[6]"}) {
    %0:2 = call @qr(%arg0) : (tensor<2x6x4xf32>) -> (tensor<2x4x6xf32>, tensor<2x4xf32>)
    %1:2 = call @qr_0(%arg0) : (tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4x4xf32>)
    %2:2 = call @qr_1(%arg0) : (tensor<2x6x4xf32>) -> (tensor<2x6x6xf32>, tensor<2x6x4xf32>)
    %3 = stablehlo.dot_general %1#0, %1#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x4xf32>, tensor<2x4x4xf32>) -> tensor<2x6x4xf32>
    %4 = stablehlo.subtract %3, %arg0 : tensor<2x6x4xf32>
    %5 = stablehlo.dot_general %2#0, %2#1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
    %6 = stablehlo.subtract %5, %arg0 : tensor<2x6x4xf32>
    %7 = stablehlo.transpose %2#0, dims = [0, 2, 1] : (tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
    %8 = stablehlo.dot_general %7, %2#0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x6x6xf32>, tensor<2x6x6xf32>) -> tensor<2x6x6xf32>
    return %0#0, %0#1, %1#0, %1#1, %4, %6, %8 : tensor<2x4x6xf32>, tensor<2x4xf32>, tensor<2x6x4xf32>, tensor<2x4x4xf32>, tensor<2x6x4xf32>, tensor<2x6x4xf32>, tensor<2x6x6xf32>
  }
  func.func private @qr(%arg0: tensor<2x6x4xf32>) -> (tensor<2x4x6xf32>, tensor<2x4xf32>) {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n]) {i=2, j=6, k=4, l=6, m=4, n=4}, custom>} : (tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4xf32>)
    %1 = stablehlo.transpose %0#0, dims = [0, 2, 1] : (tensor<2x6x4xf32>) -> tensor<2x4x6xf32>
    return %1, %0#1 : tensor<2x4x6xf32>, tensor<2x4xf32>
  }
  func.func private @qr_0(%arg0: tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4x4xf32>) {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n]) {i=2, j=6, k=4, l=6, m=4, n=4}, custom>} : (tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4xf32>)
    %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, m, n]) {i=2, j=6, k=4, l=4, m=6, n=4}, custom>} : (tensor<2x6x4xf32>, tensor<2x4xf32>) -> tensor<2x6x4xf32>
    %2 = stablehlo.slice %0#0 [0:2, 0:4, 0:4] : (tensor<2x6x4xf32>) -> tensor<2x4x4xf32>
    %3 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %5 = stablehlo.add %3, %4 : tensor<4x4xi32>
    %6 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %8 = stablehlo.broadcast_in_dim %7, dims = [1, 2] : (tensor<4x4xi1>) -> tensor<2x4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x4xf32>
    %10 = stablehlo.select %8, %9, %2 : tensor<2x4x4xi1>, tensor<2x4x4xf32>
    return %1, %10 : tensor<2x6x4xf32>, tensor<2x4x4xf32>
  }
  func.func private @qr_1(%arg0: tensor<2x6x4xf32>) -> (tensor<2x6x6xf32>, tensor<2x6x4xf32>) {
    %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n]) {i=2, j=6, k=4, l=6, m=4, n=4}, custom>} : (tensor<2x6x4xf32>) -> (tensor<2x6x4xf32>, tensor<2x4xf32>)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.pad %0#0, %cst, low = [0, 0, 0], high = [0, 0, 2], interior = [0, 0, 0] : (tensor<2x6x4xf32>, tensor<f32>) -> tensor<2x6x6xf32>
    %2 = stablehlo.custom_call @lapack_sorgqr_ffi(%1, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, m, n]) {i=2, j=6, k=6, l=4, m=6, n=6}, custom>} : (tensor<2x6x6xf32>, tensor<2x4xf32>) -> tensor<2x6x6xf32>
    %3 = stablehlo.iota dim = 0 : tensor<6x4xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6x4xi32>
    %5 = stablehlo.add %3, %4 : tensor<6x4xi32>
    %6 = stablehlo.iota dim = 1 : tensor<6x4xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<6x4xi32>, tensor<6x4xi32>) -> tensor<6x4xi1>
    %8 = stablehlo.broadcast_in_dim %7, dims = [1, 2] : (tensor<6x4xi1>) -> tensor<2x6x4xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x6x4xf32>
    %10 = stablehlo.select %8, %9, %0#0 : tensor<2x6x4xi1>, tensor<2x6x4xf32>
    return %2, %10 : tensor<2x6x6xf32>, tensor<2x6x4xf32>
  }
}
