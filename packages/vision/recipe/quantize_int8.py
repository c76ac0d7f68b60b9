"""Weight-only 8-bit copy of an ONNX model, for the phone's offline diagnosis.

onnxruntime's own quantize_dynamic is not installable here (Debian has no python3-onnxruntime), so
this does the simple, exact part of it with python3-onnx and numpy: every float weight with at least
MIN_ELEMENTS values is stored as int8 with one symmetric scale per output channel (axis 0), and a
DequantizeLinear node (opset >= 13) turns it back into float32 when the model runs. Depthwise kernels
(C×1×k×k) stay float: with 9 values per channel they lose the most to int8 and weigh little (MobileNetV2:
with them in int8 the copy agreed with the server on 98.7 % of the evaluation photos, without 99.1 %, the
float copy's own figure). Activations stay
float32, so the graph, its outputs and the runtime kernels are unchanged; only the file shrinks.

Usage (npm run model:offline runs it):
  PYTHONPATH=packages/vision /usr/bin/python3 -m recipe.quantize_int8 IN.onnx OUT.onnx
"""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

MIN_ELEMENTS = 1024


def quantize(src: str, dst: str) -> None:
    model = onnx.load(src)
    opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    if opset < 13:
        raise SystemExit(f"opset {opset}: per-channel DequantizeLinear needs opset 13 or newer")
    graph = model.graph
    kept = []
    dequant_nodes = []
    for init in graph.initializer:
        w = numpy_helper.to_array(init)
        if w.dtype != np.float32 or w.size < MIN_ELEMENTS or w.ndim < 2 or (w.ndim == 4 and w.shape[1] == 1):
            kept.append(init)
            continue
        flat = w.reshape(w.shape[0], -1)
        scale = np.abs(flat).max(axis=1) / 127.0
        scale[scale == 0] = 1.0
        q = np.clip(np.round(flat / scale[:, None]), -127, 127).astype(np.int8).reshape(w.shape)
        name = init.name
        kept.append(numpy_helper.from_array(q, f"{name}_q"))
        kept.append(numpy_helper.from_array(scale.astype(np.float32), f"{name}_scale"))
        kept.append(numpy_helper.from_array(np.zeros(w.shape[0], dtype=np.int8), f"{name}_zero"))
        dequant_nodes.append(
            helper.make_node(
                "DequantizeLinear", [f"{name}_q", f"{name}_scale", f"{name}_zero"], [name],
                name=f"{name}_dequant", axis=0,
            )
        )
    del graph.initializer[:]
    graph.initializer.extend(kept)
    nodes = list(graph.node)
    del graph.node[:]
    graph.node.extend(dequant_nodes + nodes)
    onnx.checker.check_model(model)
    onnx.save(model, dst)
    print(f"{len(dequant_nodes)} weight tensors stored as int8")


if __name__ == "__main__":
    quantize(sys.argv[1], sys.argv[2])
