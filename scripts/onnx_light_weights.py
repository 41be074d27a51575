"""The ONNX backend test data's `light` CNNs with random weights, for timing.

    $PY scripts/onnx_light_weights.py resnet50 squeezenet ...

The `light` models build every weight with a ConstantOfShape node, so loading
them says nothing about models that carry their weights. This writes
/tmp/realw/NAME.onnx with each such node replaced by an initializer of the same
shape (fixed-seed normal values scaled by 1/sqrt(fan-in); 1-D ones, the
BatchNormalization parameters, made positive): ResNet-50 becomes 102 MB.
"""
import onnx, os, sys, numpy as np
from onnx import numpy_helper, helper
D=os.path.join(os.path.dirname(onnx.__file__),'backend/test/data/light')
rng=np.random.default_rng(0)
for name in sys.argv[1:]:
    m=onnx.load(os.path.join(D,f'light_{name}.onnx'))
    g=m.graph
    consts={}
    for n in g.node:
        if n.op_type=='Constant':
            consts[n.output[0]]=numpy_helper.to_array(n.attribute[0].t)
    inits={i.name:numpy_helper.to_array(i) for i in g.initializer}
    keep=[]; new_inits=[]
    for n in g.node:
        if n.op_type=='ConstantOfShape' and (n.input[0] in consts or n.input[0] in inits):
            shape=tuple(int(v) for v in (consts.get(n.input[0]) if n.input[0] in consts else inits[n.input[0]]))
            fan=int(np.prod(shape[1:])) if len(shape)>1 else 1
            a=(rng.standard_normal(shape)/np.sqrt(max(fan,1))).astype(np.float32)
            if len(shape)==1: a=np.abs(a)+0.5  # BN scales/vars stay positive
            new_inits.append(numpy_helper.from_array(a,n.output[0]))
        else:
            keep.append(n)
    del g.node[:]; g.node.extend(keep); g.initializer.extend(new_inits)
    # drop now-unused Constant shape nodes
    used={i for n in g.node for i in n.input}
    kept=[n for n in g.node if not (n.op_type=='Constant' and n.output[0] not in used)]
    del g.node[:]; g.node.extend(kept)
    os.makedirs('/tmp/realw', exist_ok=True)
    onnx.save(m, f'/tmp/realw/{name}.onnx')
    print(name, os.path.getsize(f'/tmp/realw/{name}.onnx')//1000000, 'MB', len(new_inits), 'weights')
