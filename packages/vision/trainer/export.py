"""ONNX export with class activation maps.

  export.py WEIGHTS OUT.onnx [--arch kutunet]

The served graph has two outputs: `logits` (N×4) and `cam` (N×4×h×w), the class activation maps of the
last feature map: for a global-average-pool → linear head, cam[k] = W[k]·f(x, y) + b[k] is a 1×1
convolution of the feature map with the head's weights, and logits are exactly the spatial mean of cam.
"""
import sys
import os

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(__file__))


class WithCam(nn.Module):
    """Wraps a model with `.feature_map(x)` (N×C×h×w) and `.classifier` (nn.Linear C→K)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        f = self.model.feature_map(x)
        lin = self.model.classifier
        cam = torch.einsum('nchw,kc->nkhw', f, lin.weight) + lin.bias.view(1, -1, 1, 1)
        return cam.mean(dim=(2, 3)), cam


def export_onnx(model, out_path, input_size):
    model.eval()
    wrapped = WithCam(model).eval()
    dummy = torch.zeros(1, 3, input_size, input_size)
    torch.onnx.export(wrapped, dummy, out_path, input_names=['input'], output_names=['logits', 'cam'],
                      dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}, 'cam': {0: 'batch'}},
                      opset_version=13)


if __name__ == '__main__':
    from model import KutuNet
    weights, out = sys.argv[1], sys.argv[2]
    m = KutuNet()
    m.load_state_dict(torch.load(weights, map_location='cpu'))
    export_onnx(m, out, 128)
    print('wrote', out)
