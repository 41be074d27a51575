"""One ONNX model through onnxruntime and through smelt.onnx, side by side in one run.

    $PY scripts/onnx_vs_ort.py MODEL_NAME BACKEND

reads /tmp/realw/MODEL_NAME.onnx (made by scripts/onnx_light_weights.py), feeds
a fixed-seed normal input, and prints: onnxruntime's load + first run and
steady-state median (2 intra-op threads); smelt's load + first run with a cold
compile cache (set SMELT_CACHE_DIR to an empty folder), a second session in the
same process (the in-memory cache hit), its steady-state median; and the largest
difference between the two outputs relative to onnxruntime's largest value.
"""
import sys, time, os, numpy as np, onnx, onnxruntime as ort, smelt, smelt.onnx, tempfile
name=sys.argv[1]; path=f'/tmp/realw/{name}.onnx'
m=onnx.load(path, load_external_data=False)
inits={i.name for i in m.graph.initializer}
x=[i for i in m.graph.input if i.name not in inits][0]
shape=tuple(d.dim_value if d.HasField('dim_value') else 1 for d in x.type.tensor_type.shape.dim)
feeds={x.name: np.random.default_rng(1).standard_normal(shape).astype(np.float32)}
def steady(run, k=10):
    ts=[]
    for _ in range(k):
        t=time.perf_counter(); run(); ts.append(time.perf_counter()-t)
    return 1e3*np.median(ts)
so=ort.SessionOptions(); so.intra_op_num_threads=2
t=time.perf_counter(); o=ort.InferenceSession(path, so, providers=['CPUExecutionProvider']); want=o.run(None,feeds); ort_first=time.perf_counter()-t
ort_ms=steady(lambda: o.run(None,feeds))
t=time.perf_counter(); s=smelt.onnx.InferenceSession(path, backend=sys.argv[2]); got=s.run(None,feeds); sm_first=time.perf_counter()-t
t=time.perf_counter(); s2=smelt.onnx.InferenceSession(path, backend=sys.argv[2]); s2.run(None,feeds); sm_warm=time.perf_counter()-t
sm_ms=steady(lambda: s.run(None,feeds))
err=np.max(np.abs(got[0]-want[0]))/max(1e-6,np.max(np.abs(want[0])))
print(f"{name}: onnxruntime load+first {ort_first:.2f}s steady {ort_ms:.1f}ms | smelt({sys.argv[2]}) load+first cold {sm_first:.2f}s warm {sm_warm:.2f}s steady {sm_ms:.1f}ms | max rel err {err:.2e}", flush=True)
