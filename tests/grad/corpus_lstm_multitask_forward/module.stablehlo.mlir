module @jit_grads attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<1xf32>, %arg2: tensor<16x8xf32>, %arg3: tensor<8x1xf32>, %arg4: tensor<8xf32>, %arg5: tensor<1xf32>, %arg6: tensor<16x8xf32>, %arg7: tensor<8x1xf32>, %arg8: tensor<8xf32>, %arg9: tensor<1xf32>, %arg10: tensor<16x8xf32>, %arg11: tensor<8x1xf32>, %arg12: tensor<64xf32>, %arg13: tensor<16x64xf32>, %arg14: tensor<6x64xf32>, %arg15: tensor<4x24x6xf32>, %arg16: tensor<4x24x3xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}, tensor<1xf32> {jax.result_info = "result[2]"}, tensor<16x8xf32> {jax.result_info = "result[3]"}, tensor<8x1xf32> {jax.result_info = "result[4]"}, tensor<8xf32> {jax.result_info = "result[5]"}, tensor<1xf32> {jax.result_info = "result[6]"}, tensor<16x8xf32> {jax.result_info = "result[7]"}, tensor<8x1xf32> {jax.result_info = "result[8]"}, tensor<8xf32> {jax.result_info = "result[9]"}, tensor<1xf32> {jax.result_info = "result[10]"}, tensor<16x8xf32> {jax.result_info = "result[11]"}, tensor<8x1xf32> {jax.result_info = "result[12]"}, tensor<64xf32> {jax.result_info = "result[13]"}, tensor<16x64xf32> {jax.result_info = "result[14]"}, tensor<6x64xf32> {jax.result_info = "result[15]"}, tensor<4x24x6xf32> {jax.result_info = "result[16]"}, tensor<4x24x3xf32> {jax.result_info = "result[17]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %2 = stablehlo.transpose %arg15, dims = [1, 0, 2] : (tensor<4x24x6xf32>) -> tensor<24x4x6xf32>
    %3 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<24x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %17:20 = stablehlo.while(%iterArg = %2, %iterArg_52 = %arg14, %iterArg_53 = %arg13, %iterArg_54 = %3, %iterArg_55 = %c, %iterArg_56 = %0, %iterArg_57 = %1, %iterArg_58 = %4, %iterArg_59 = %5, %iterArg_60 = %6, %iterArg_61 = %7, %iterArg_62 = %8, %iterArg_63 = %9, %iterArg_64 = %10, %iterArg_65 = %11, %iterArg_66 = %12, %iterArg_67 = %13, %iterArg_68 = %14, %iterArg_69 = %15, %iterArg_70 = %16) : tensor<24x4x6xf32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<1x64xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>
    cond {
      %c_71 = stablehlo.constant dense<24> : tensor<i32>
      %145 = stablehlo.compare LT, %iterArg_55, %c_71, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %145 : tensor<i1>
    } do {
      %145 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_55) : (tensor<24x4x6xf32>, tensor<i32>) -> tensor<4x6xf32>
      %146:15 = func.call @closed_call(%iterArg_52, %iterArg_53, %iterArg_54, %iterArg_56, %iterArg_57, %145) : (tensor<6x64xf32>, tensor<16x64xf32>, tensor<1x64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
      %147 = func.call @dynamic_update_index_in_dim(%iterArg_58, %146#2, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %148 = func.call @dynamic_update_index_in_dim(%iterArg_59, %146#3, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %149 = func.call @dynamic_update_index_in_dim(%iterArg_60, %146#4, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %150 = func.call @dynamic_update_index_in_dim(%iterArg_61, %146#5, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %151 = func.call @dynamic_update_index_in_dim(%iterArg_62, %146#6, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %152 = func.call @dynamic_update_index_in_dim(%iterArg_63, %146#7, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %153 = func.call @dynamic_update_index_in_dim(%iterArg_64, %146#8, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %154 = func.call @dynamic_update_index_in_dim(%iterArg_65, %146#9, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %155 = func.call @dynamic_update_index_in_dim(%iterArg_66, %146#10, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %156 = func.call @dynamic_update_index_in_dim(%iterArg_67, %146#11, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %157 = func.call @dynamic_update_index_in_dim(%iterArg_68, %146#12, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %158 = func.call @dynamic_update_index_in_dim(%iterArg_69, %146#13, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %159 = func.call @dynamic_update_index_in_dim(%iterArg_70, %146#14, %iterArg_55) : (tensor<24x4x16xf32>, tensor<4x16xf32>, tensor<i32>) -> tensor<24x4x16xf32>
      %c_71 = stablehlo.constant dense<1> : tensor<i32>
      %160 = stablehlo.add %iterArg_55, %c_71 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_52, %iterArg_53, %iterArg_54, %160, %146#0, %146#1, %147, %148, %149, %150, %151, %152, %153, %154, %155, %156, %157, %158, %159 : tensor<24x4x6xf32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<1x64xf32>, tensor<i32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>
    }
    %18 = stablehlo.dot_general %17#7, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<24x4x16xf32>, tensor<16x8xf32>) -> tensor<24x4x8xf32>
    %19 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<24x4x8xf32>
    %21 = stablehlo.add %18, %20 : tensor<24x4x8xf32>
    %22 = call @relu(%21) : (tensor<24x4x8xf32>) -> tensor<24x4x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %24 = stablehlo.compare GT, %21, %23, FLOAT : (tensor<24x4x8xf32>, tensor<24x4x8xf32>) -> tensor<24x4x8xi1>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %26 = stablehlo.dot_general %22, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<8x1xf32>) -> tensor<24x4x1xf32>
    %27 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<1xf32>) -> tensor<1x1x1xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<24x4x1xf32>
    %29 = stablehlo.add %26, %28 : tensor<24x4x1xf32>
    %30 = stablehlo.reshape %29 : (tensor<24x4x1xf32>) -> tensor<24x4xf32>
    %31 = stablehlo.dot_general %17#7, %arg6, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<24x4x16xf32>, tensor<16x8xf32>) -> tensor<24x4x8xf32>
    %32 = stablehlo.broadcast_in_dim %arg4, dims = [2] : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<24x4x8xf32>
    %34 = stablehlo.add %31, %33 : tensor<24x4x8xf32>
    %35 = call @relu(%34) : (tensor<24x4x8xf32>) -> tensor<24x4x8xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %37 = stablehlo.compare GT, %34, %36, FLOAT : (tensor<24x4x8xf32>, tensor<24x4x8xf32>) -> tensor<24x4x8xi1>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %39 = stablehlo.dot_general %35, %arg7, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<8x1xf32>) -> tensor<24x4x1xf32>
    %40 = stablehlo.broadcast_in_dim %arg5, dims = [2] : (tensor<1xf32>) -> tensor<1x1x1xf32>
    %41 = stablehlo.broadcast_in_dim %40, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<24x4x1xf32>
    %42 = stablehlo.add %39, %41 : tensor<24x4x1xf32>
    %43 = stablehlo.reshape %42 : (tensor<24x4x1xf32>) -> tensor<24x4xf32>
    %44 = stablehlo.dot_general %17#7, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<24x4x16xf32>, tensor<16x8xf32>) -> tensor<24x4x8xf32>
    %45 = stablehlo.broadcast_in_dim %arg8, dims = [2] : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 1, 2] : (tensor<1x1x8xf32>) -> tensor<24x4x8xf32>
    %47 = stablehlo.add %44, %46 : tensor<24x4x8xf32>
    %48 = call @relu(%47) : (tensor<24x4x8xf32>) -> tensor<24x4x8xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %50 = stablehlo.compare GT, %47, %49, FLOAT : (tensor<24x4x8xf32>, tensor<24x4x8xf32>) -> tensor<24x4x8xi1>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %52 = stablehlo.dot_general %48, %arg11, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<8x1xf32>) -> tensor<24x4x1xf32>
    %53 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<1xf32>) -> tensor<1x1x1xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1, 2] : (tensor<1x1x1xf32>) -> tensor<24x4x1xf32>
    %55 = stablehlo.add %52, %54 : tensor<24x4x1xf32>
    %56 = stablehlo.reshape %55 : (tensor<24x4x1xf32>) -> tensor<24x4xf32>
    %57 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<24x4xf32>) -> tensor<24x4x1xf32>
    %58 = stablehlo.broadcast_in_dim %43, dims = [0, 1] : (tensor<24x4xf32>) -> tensor<24x4x1xf32>
    %59 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<24x4xf32>) -> tensor<24x4x1xf32>
    %60 = stablehlo.concatenate %57, %58, %59, dim = 2 : (tensor<24x4x1xf32>, tensor<24x4x1xf32>, tensor<24x4x1xf32>) -> tensor<24x4x3xf32>
    %61 = stablehlo.transpose %60, dims = [1, 0, 2] : (tensor<24x4x3xf32>) -> tensor<4x24x3xf32>
    %62 = stablehlo.subtract %61, %arg16 : tensor<4x24x3xf32>
    %63 = chlo.square %62 : tensor<4x24x3xf32> -> tensor<4x24x3xf32>
    %cst_20 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<4x24x3xf32>
    %65 = stablehlo.multiply %64, %62 : tensor<4x24x3xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %66 = stablehlo.reduce(%63 init: %cst_21) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x24x3xf32>, tensor<f32>) -> tensor<3xf32>
    %cst_22 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %68 = stablehlo.divide %66, %67 : tensor<3xf32>
    %cst_23 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %69 = stablehlo.reduce(%68 init: %cst_23) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    %cst_24 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %70 = stablehlo.divide %69, %cst_24 : tensor<f32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_28 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %73 = stablehlo.divide %cst_27, %cst_28 : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %cst_29 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %76 = stablehlo.divide %74, %75 : tensor<3xf32>
    %77 = stablehlo.broadcast_in_dim %76, dims = [2] : (tensor<3xf32>) -> tensor<4x24x3xf32>
    %78 = stablehlo.multiply %77, %65 : tensor<4x24x3xf32>
    %79 = stablehlo.negate %78 : tensor<4x24x3xf32>
    %80 = stablehlo.transpose %78, dims = [1, 0, 2] : (tensor<4x24x3xf32>) -> tensor<24x4x3xf32>
    %81 = stablehlo.slice %80 [0:24, 0:4, 0:1] : (tensor<24x4x3xf32>) -> tensor<24x4x1xf32>
    %82 = stablehlo.reshape %81 : (tensor<24x4x1xf32>) -> tensor<24x4xf32>
    %83 = stablehlo.slice %80 [0:24, 0:4, 1:2] : (tensor<24x4x3xf32>) -> tensor<24x4x1xf32>
    %84 = stablehlo.reshape %83 : (tensor<24x4x1xf32>) -> tensor<24x4xf32>
    %85 = stablehlo.slice %80 [0:24, 0:4, 2:3] : (tensor<24x4x3xf32>) -> tensor<24x4x1xf32>
    %86 = stablehlo.reshape %85 : (tensor<24x4x1xf32>) -> tensor<24x4xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<24x4xf32>) -> tensor<24x4x1xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.reduce(%87 init: %cst_30) applies stablehlo.add across dimensions = [0, 1] : (tensor<24x4x1xf32>, tensor<f32>) -> tensor<1xf32>
    %89 = stablehlo.reshape %88 : (tensor<1xf32>) -> tensor<1x1x1xf32>
    %cst_31 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %90 = stablehlo.reduce(%89 init: %cst_31) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<f32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %92 = stablehlo.dot_general %87, %48, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x1xf32>, tensor<24x4x8xf32>) -> tensor<1x8xf32>
    %93 = stablehlo.transpose %92, dims = [1, 0] : (tensor<1x8xf32>) -> tensor<8x1xf32>
    %94 = stablehlo.dot_general %87, %arg11, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x1xf32>, tensor<8x1xf32>) -> tensor<24x4x8xf32>
    %cst_32 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %96 = stablehlo.select %50, %94, %95 : tensor<24x4x8xi1>, tensor<24x4x8xf32>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.reduce(%96 init: %cst_33) applies stablehlo.add across dimensions = [0, 1] : (tensor<24x4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %98 = stablehlo.reshape %97 : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %99 = stablehlo.reduce(%98 init: %cst_34) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %100 = stablehlo.dot_general %96, %17#7, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<24x4x16xf32>) -> tensor<8x16xf32>
    %101 = stablehlo.transpose %100, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %102 = stablehlo.dot_general %96, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<16x8xf32>) -> tensor<24x4x16xf32>
    %103 = stablehlo.broadcast_in_dim %84, dims = [0, 1] : (tensor<24x4xf32>) -> tensor<24x4x1xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %104 = stablehlo.reduce(%103 init: %cst_35) applies stablehlo.add across dimensions = [0, 1] : (tensor<24x4x1xf32>, tensor<f32>) -> tensor<1xf32>
    %105 = stablehlo.reshape %104 : (tensor<1xf32>) -> tensor<1x1x1xf32>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %106 = stablehlo.reduce(%105 init: %cst_36) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<f32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %108 = stablehlo.dot_general %103, %35, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x1xf32>, tensor<24x4x8xf32>) -> tensor<1x8xf32>
    %109 = stablehlo.transpose %108, dims = [1, 0] : (tensor<1x8xf32>) -> tensor<8x1xf32>
    %110 = stablehlo.dot_general %103, %arg7, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x1xf32>, tensor<8x1xf32>) -> tensor<24x4x8xf32>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %112 = stablehlo.select %37, %110, %111 : tensor<24x4x8xi1>, tensor<24x4x8xf32>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %113 = stablehlo.reduce(%112 init: %cst_38) applies stablehlo.add across dimensions = [0, 1] : (tensor<24x4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %114 = stablehlo.reshape %113 : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %115 = stablehlo.reduce(%114 init: %cst_39) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %116 = stablehlo.dot_general %112, %17#7, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<24x4x16xf32>) -> tensor<8x16xf32>
    %117 = stablehlo.transpose %116, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %118 = stablehlo.dot_general %112, %arg6, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<16x8xf32>) -> tensor<24x4x16xf32>
    %119 = stablehlo.add %102, %118 : tensor<24x4x16xf32>
    %120 = stablehlo.broadcast_in_dim %82, dims = [0, 1] : (tensor<24x4xf32>) -> tensor<24x4x1xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %121 = stablehlo.reduce(%120 init: %cst_40) applies stablehlo.add across dimensions = [0, 1] : (tensor<24x4x1xf32>, tensor<f32>) -> tensor<1xf32>
    %122 = stablehlo.reshape %121 : (tensor<1xf32>) -> tensor<1x1x1xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %123 = stablehlo.reduce(%122 init: %cst_41) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1xf32>, tensor<f32>) -> tensor<f32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %125 = stablehlo.dot_general %120, %22, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x1xf32>, tensor<24x4x8xf32>) -> tensor<1x8xf32>
    %126 = stablehlo.transpose %125, dims = [1, 0] : (tensor<1x8xf32>) -> tensor<8x1xf32>
    %127 = stablehlo.dot_general %120, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x1xf32>, tensor<8x1xf32>) -> tensor<24x4x8xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %129 = stablehlo.select %24, %127, %128 : tensor<24x4x8xi1>, tensor<24x4x8xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %130 = stablehlo.reduce(%129 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<24x4x8xf32>, tensor<f32>) -> tensor<8xf32>
    %131 = stablehlo.reshape %130 : (tensor<8xf32>) -> tensor<1x1x8xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %132 = stablehlo.reduce(%131 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %133 = stablehlo.dot_general %129, %17#7, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<24x4x16xf32>) -> tensor<8x16xf32>
    %134 = stablehlo.transpose %133, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
    %135 = stablehlo.dot_general %129, %arg2, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<24x4x8xf32>, tensor<16x8xf32>) -> tensor<24x4x16xf32>
    %136 = stablehlo.add %119, %135 : tensor<24x4x16xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %138 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %cst_47 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %139 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<6x64xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %140 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<16x64xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %141 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %cst_50 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<24x4x6xf32>
    %c_51 = stablehlo.constant dense<0> : tensor<i32>
    %143:23 = stablehlo.while(%iterArg = %136, %iterArg_52 = %2, %iterArg_53 = %17#8, %iterArg_54 = %17#9, %iterArg_55 = %17#10, %iterArg_56 = %17#11, %iterArg_57 = %17#12, %iterArg_58 = %17#13, %iterArg_59 = %17#14, %iterArg_60 = %17#15, %iterArg_61 = %17#16, %iterArg_62 = %17#17, %iterArg_63 = %17#18, %iterArg_64 = %17#19, %iterArg_65 = %arg14, %iterArg_66 = %arg13, %iterArg_67 = %c_51, %iterArg_68 = %139, %iterArg_69 = %140, %iterArg_70 = %141, %iterArg_71 = %137, %iterArg_72 = %138, %iterArg_73 = %142) : tensor<24x4x16xf32>, tensor<24x4x6xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<i32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<24x4x6xf32>
    cond {
      %c_74 = stablehlo.constant dense<24> : tensor<i32>
      %145 = stablehlo.compare LT, %iterArg_67, %c_74, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %145 : tensor<i1>
    } do {
      %c_74 = stablehlo.constant dense<24> : tensor<i32>
      %145 = stablehlo.subtract %c_74, %iterArg_67 : tensor<i32>
      %c_75 = stablehlo.constant dense<1> : tensor<i32>
      %146 = stablehlo.subtract %145, %c_75 : tensor<i32>
      %147 = func.call @dynamic_index_in_dim_0(%iterArg, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %148 = func.call @dynamic_index_in_dim(%iterArg_52, %146) : (tensor<24x4x6xf32>, tensor<i32>) -> tensor<4x6xf32>
      %149 = func.call @dynamic_index_in_dim_0(%iterArg_53, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %150 = func.call @dynamic_index_in_dim_0(%iterArg_54, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %151 = func.call @dynamic_index_in_dim_0(%iterArg_55, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %152 = func.call @dynamic_index_in_dim_0(%iterArg_56, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %153 = func.call @dynamic_index_in_dim_0(%iterArg_57, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %154 = func.call @dynamic_index_in_dim_0(%iterArg_58, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %155 = func.call @dynamic_index_in_dim_0(%iterArg_59, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %156 = func.call @dynamic_index_in_dim_0(%iterArg_60, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %157 = func.call @dynamic_index_in_dim_0(%iterArg_61, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %158 = func.call @dynamic_index_in_dim_0(%iterArg_62, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %159 = func.call @dynamic_index_in_dim_0(%iterArg_63, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %160 = func.call @dynamic_index_in_dim_0(%iterArg_64, %146) : (tensor<24x4x16xf32>, tensor<i32>) -> tensor<4x16xf32>
      %161:6 = func.call @closed_call_1(%iterArg_65, %iterArg_66, %iterArg_68, %iterArg_69, %iterArg_70, %iterArg_71, %iterArg_72, %147, %148, %149, %150, %151, %152, %153, %154, %155, %156, %157, %158, %159, %160) : (tensor<6x64xf32>, tensor<16x64xf32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> (tensor<6x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32>)
      %162 = func.call @dynamic_update_index_in_dim_2(%iterArg_73, %161#5, %146) : (tensor<24x4x6xf32>, tensor<4x6xf32>, tensor<i32>) -> tensor<24x4x6xf32>
      %c_76 = stablehlo.constant dense<1> : tensor<i32>
      %163 = stablehlo.add %iterArg_67, %c_76 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_52, %iterArg_53, %iterArg_54, %iterArg_55, %iterArg_56, %iterArg_57, %iterArg_58, %iterArg_59, %iterArg_60, %iterArg_61, %iterArg_62, %iterArg_63, %iterArg_64, %iterArg_65, %iterArg_66, %163, %161#0, %161#1, %161#2, %161#3, %161#4, %162 : tensor<24x4x16xf32>, tensor<24x4x6xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<24x4x16xf32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<i32>, tensor<6x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<24x4x6xf32>
    }
    %144 = stablehlo.transpose %143#22, dims = [1, 0, 2] : (tensor<24x4x6xf32>) -> tensor<4x24x6xf32>
    return %70, %132, %124, %134, %126, %115, %107, %117, %109, %99, %91, %101, %93, %143#19, %143#18, %143#17, %144, %79 : tensor<f32>, tensor<8xf32>, tensor<1xf32>, tensor<16x8xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<16x8xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<1xf32>, tensor<16x8xf32>, tensor<8x1xf32>, tensor<64xf32>, tensor<16x64xf32>, tensor<6x64xf32>, tensor<4x24x6xf32>, tensor<4x24x3xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<24x4x6xf32>, %arg1: tensor<i32>) -> tensor<4x6xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 6] : (tensor<24x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x6xf32>) -> tensor<4x6xf32>
    return %1 : tensor<4x6xf32>
  }
  func.func private @closed_call(%arg0: tensor<6x64xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<1x64xf32>, %arg3: tensor<4x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<4x6xf32>) -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
    %0 = stablehlo.dot_general %arg5, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x64xf32>) -> tensor<4x64xf32>
    %1 = stablehlo.dot_general %arg3, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x64xf32>) -> tensor<4x64xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x64xf32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %4 = stablehlo.add %2, %3 : tensor<4x64xf32>
    %5 = stablehlo.slice %4 [0:4, 0:16] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %6 = stablehlo.slice %4 [0:4, 16:32] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %7 = stablehlo.slice %4 [0:4, 32:48] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %8 = stablehlo.slice %4 [0:4, 48:64] : (tensor<4x64xf32>) -> tensor<4x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %10 = stablehlo.add %6, %9 : tensor<4x16xf32>
    %11 = stablehlo.negate %10 : tensor<4x16xf32>
    %12 = stablehlo.exponential %11 : tensor<4x16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %14 = stablehlo.add %13, %12 : tensor<4x16xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %16 = stablehlo.divide %15, %14 : tensor<4x16xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %18 = stablehlo.subtract %17, %16 : tensor<4x16xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<4x16xf32>
    %20 = stablehlo.multiply %16, %arg4 : tensor<4x16xf32>
    %21 = stablehlo.negate %5 : tensor<4x16xf32>
    %22 = stablehlo.exponential %21 : tensor<4x16xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %24 = stablehlo.add %23, %22 : tensor<4x16xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %26 = stablehlo.divide %25, %24 : tensor<4x16xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %28 = stablehlo.subtract %27, %26 : tensor<4x16xf32>
    %29 = stablehlo.multiply %26, %28 : tensor<4x16xf32>
    %30 = stablehlo.tanh %7 : tensor<4x16xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %32 = stablehlo.subtract %31, %30 : tensor<4x16xf32>
    %33 = stablehlo.multiply %26, %30 : tensor<4x16xf32>
    %34 = stablehlo.add %20, %33 : tensor<4x16xf32>
    %35 = stablehlo.negate %8 : tensor<4x16xf32>
    %36 = stablehlo.exponential %35 : tensor<4x16xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %38 = stablehlo.add %37, %36 : tensor<4x16xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %40 = stablehlo.divide %39, %38 : tensor<4x16xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %42 = stablehlo.subtract %41, %40 : tensor<4x16xf32>
    %43 = stablehlo.multiply %40, %42 : tensor<4x16xf32>
    %44 = stablehlo.tanh %34 : tensor<4x16xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %46 = stablehlo.subtract %45, %44 : tensor<4x16xf32>
    %47 = stablehlo.multiply %40, %44 : tensor<4x16xf32>
    return %47, %34, %47, %arg3, %19, %arg4, %16, %29, %30, %32, %26, %43, %44, %46, %40 : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<24x4x16xf32>, %arg1: tensor<4x16xf32>, %arg2: tensor<i32>) -> tensor<24x4x16xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x16xf32>) -> tensor<1x4x16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<24x4x16xf32>, tensor<1x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<24x4x16xf32>
    return %1 : tensor<24x4x16xf32>
  }
  func.func private @relu(%arg0: tensor<24x4x8xf32>) -> tensor<24x4x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24x4x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<24x4x8xf32>
    return %1 : tensor<24x4x8xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<24x4x16xf32>, %arg1: tensor<i32>) -> tensor<4x16xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 4, 16] : (tensor<24x4x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x4x16xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4x16xf32>) -> tensor<4x16xf32>
    return %1 : tensor<4x16xf32>
  }
  func.func private @closed_call_1(%arg0: tensor<6x64xf32>, %arg1: tensor<16x64xf32>, %arg2: tensor<6x64xf32>, %arg3: tensor<16x64xf32>, %arg4: tensor<64xf32>, %arg5: tensor<4x16xf32>, %arg6: tensor<4x16xf32>, %arg7: tensor<4x16xf32>, %arg8: tensor<4x6xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<4x16xf32>, %arg11: tensor<4x16xf32>, %arg12: tensor<4x16xf32>, %arg13: tensor<4x16xf32>, %arg14: tensor<4x16xf32>, %arg15: tensor<4x16xf32>, %arg16: tensor<4x16xf32>, %arg17: tensor<4x16xf32>, %arg18: tensor<4x16xf32>, %arg19: tensor<4x16xf32>, %arg20: tensor<4x16xf32>) -> (tensor<6x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32>) {
    %0 = stablehlo.add %arg5, %arg7 : tensor<4x16xf32>
    %1 = stablehlo.multiply %arg20, %0 : tensor<4x16xf32>
    %2 = stablehlo.multiply %0, %arg18 : tensor<4x16xf32>
    %3 = stablehlo.multiply %1, %arg19 : tensor<4x16xf32>
    %4 = stablehlo.add %arg6, %3 : tensor<4x16xf32>
    %5 = stablehlo.multiply %3, %arg18 : tensor<4x16xf32>
    %6 = stablehlo.add %4, %5 : tensor<4x16xf32>
    %7 = stablehlo.multiply %2, %arg17 : tensor<4x16xf32>
    %8 = stablehlo.multiply %arg16, %6 : tensor<4x16xf32>
    %9 = stablehlo.multiply %6, %arg14 : tensor<4x16xf32>
    %10 = stablehlo.multiply %8, %arg15 : tensor<4x16xf32>
    %11 = stablehlo.multiply %10, %arg14 : tensor<4x16xf32>
    %12 = stablehlo.add %10, %11 : tensor<4x16xf32>
    %13 = stablehlo.multiply %9, %arg13 : tensor<4x16xf32>
    %14 = stablehlo.multiply %arg12, %6 : tensor<4x16xf32>
    %15 = stablehlo.multiply %6, %arg11 : tensor<4x16xf32>
    %16 = stablehlo.multiply %15, %arg10 : tensor<4x16xf32>
    %17 = stablehlo.concatenate %13, %16, %12, %7, dim = 1 : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x64xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x64xf32>, tensor<f32>) -> tensor<64xf32>
    %19 = stablehlo.reshape %18 : (tensor<64xf32>) -> tensor<1x64xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %20 = stablehlo.reduce(%19 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %21 = stablehlo.add %arg4, %20 : tensor<64xf32>
    %22 = stablehlo.dot_general %17, %arg9, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<4x16xf32>) -> tensor<64x16xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0] : (tensor<64x16xf32>) -> tensor<16x64xf32>
    %24 = stablehlo.add %arg3, %23 : tensor<16x64xf32>
    %25 = stablehlo.dot_general %17, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<16x64xf32>) -> tensor<4x16xf32>
    %26 = stablehlo.dot_general %17, %arg8, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<4x6xf32>) -> tensor<64x6xf32>
    %27 = stablehlo.transpose %26, dims = [1, 0] : (tensor<64x6xf32>) -> tensor<6x64xf32>
    %28 = stablehlo.add %arg2, %27 : tensor<6x64xf32>
    %29 = stablehlo.dot_general %17, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x64xf32>, tensor<6x64xf32>) -> tensor<4x6xf32>
    return %28, %24, %21, %25, %14, %29 : tensor<6x64xf32>, tensor<16x64xf32>, tensor<64xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x6xf32>
  }
  func.func private @dynamic_update_index_in_dim_2(%arg0: tensor<24x4x6xf32>, %arg1: tensor<4x6xf32>, %arg2: tensor<i32>) -> tensor<24x4x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<4x6xf32>) -> tensor<1x4x6xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<24x4x6xf32>, tensor<1x4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<24x4x6xf32>
    return %1 : tensor<24x4x6xf32>
  }
}
