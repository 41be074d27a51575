module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xf32>) -> (tensor<8x16xf32> {jax.result_info = "result[0]"}, tensor<8x16xf32> {jax.result_info = "result[1]"}, tensor<8x16xf32> {jax.result_info = "result[2]"}, tensor<8x16xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.sine %arg0 : tensor<8x16xf32>
    %1 = stablehlo.cosine %arg0 : tensor<8x16xf32>
    %2 = stablehlo.tan %arg0 : tensor<8x16xf32>
    %3 = stablehlo.multiply %0, %0 : tensor<8x16xf32>
    %4 = stablehlo.multiply %1, %1 : tensor<8x16xf32>
    %5 = stablehlo.add %3, %4 : tensor<8x16xf32>
    return %0, %1, %2, %5 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
  }
}
