module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x10xf32>, %arg1: tensor<4x6xf32>, %arg2: tensor<5x6xf32>, %arg3: tensor<3x6xf32>, %arg4: tensor<7x12xf32>) -> (tensor<7x10xf32> {jax.result_info = "result"}) {
    %0 = call @_roll_static(%arg0) : (tensor<6x10xf32>) -> tensor<6x10xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<6x10xf32>
    %2 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x10xf32>) -> tensor<4x10xf32>
    %3 = stablehlo.dot_general %arg2, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x6xf32>, tensor<6x10xf32>) -> tensor<5x10xf32>
    %4 = stablehlo.tanh %3 : tensor<5x10xf32>
    %5 = stablehlo.dot_general %arg3, %1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x10xf32>) -> tensor<3x10xf32>
    %6 = stablehlo.concatenate %2, %4, %5, dim = 0 : (tensor<4x10xf32>, tensor<5x10xf32>, tensor<3x10xf32>) -> tensor<12x10xf32>
    %7 = call @relu(%6) : (tensor<12x10xf32>) -> tensor<12x10xf32>
    %8 = stablehlo.dot_general %arg4, %7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<7x12xf32>, tensor<12x10xf32>) -> tensor<7x10xf32>
    return %8 : tensor<7x10xf32>
  }
  func.func private @_roll_static(%arg0: tensor<6x10xf32>) -> tensor<6x10xf32> {
    %0 = stablehlo.slice %arg0 [0:6, 9:10] : (tensor<6x10xf32>) -> tensor<6x1xf32>
    %1 = stablehlo.slice %arg0 [0:6, 0:9] : (tensor<6x10xf32>) -> tensor<6x9xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<6x1xf32>, tensor<6x9xf32>) -> tensor<6x10xf32>
    return %2 : tensor<6x10xf32>
  }
  func.func private @relu(%arg0: tensor<12x10xf32>) -> tensor<12x10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<12x10xf32>
    return %1 : tensor<12x10xf32>
  }
}
