"""ONNX export with class activation maps.

  PYTHONPATH=packages/vision python3 -m trainer.export WEIGHTS OUT.onnx [OOD.pt]

The served graph has two outputs: `logits` (N×4) and `cam` (N×4×h×w), the class activation maps of the
last feature map: for a global-average-pool → linear head, cam[k] = W[k]·f(x, y) + b[k] is a 1×1
convolution of the feature map with the head's weights, and logits are exactly the spatial mean of cam.
A model with crop heads (KutuNet's `crop_heads`, train.py --crop-heads) adds `logits_<crop>` and `cam_<crop>`
for each crop in `CROPS`: the answer when the farmer names that crop.
"""
import sys

import torch
from torch import nn

from .model import CROPS


class WithCam(nn.Module):
    """Wraps a model with `.feature_map(x)` (N×C×h×w) and `.classifier` (nn.Linear C→K). With `ood`
    (P: C×k, means: classes×C) a third output: the squared Mahalanobis distance of the pooled features
    to the nearest leaf-class mean over k whitened principal directions, divided by k."""

    def __init__(self, model, ood=None):
        super().__init__()
        self.model = model
        self.with_ood = ood is not None
        if ood is not None:
            self.register_buffer('ood_projection', torch.as_tensor(ood['P']).float())
            self.register_buffer('ood_means', torch.as_tensor(ood['means']).float())

    def forward(self, x):
        f = self.model.feature_map(x)
        cams = [class_activation_maps(f, lin) for lin in [self.model.classifier, *self.crop_heads()]]
        outputs = [cams[0].mean(dim=(2, 3)), cams[0]]
        if self.with_ood:
            diff = f.mean(dim=(2, 3)).unsqueeze(1) - self.ood_means.unsqueeze(0)
            dist = (torch.matmul(diff, self.ood_projection) ** 2).sum(-1) / self.ood_projection.shape[1]
            outputs.append(dist.min(dim=1).values)
        for cam in cams[1:]:
            outputs += [cam.mean(dim=(2, 3)), cam]
        return tuple(outputs)

    def crop_heads(self):
        return list(getattr(self.model, 'crop_heads', []))

    def output_names(self):
        crops = CROPS[:len(self.crop_heads())]
        return ['logits', 'cam'] + (['ood'] if self.with_ood else []) + [
            name for crop in crops for name in (f'logits_{crop}', f'cam_{crop}')]


def class_activation_maps(f, lin):
    return torch.einsum('nchw,kc->nkhw', f, lin.weight) + lin.bias.view(1, -1, 1, 1)


def export_onnx(model, out_path, input_size, ood=None):
    model.eval()
    wrapped = WithCam(model, ood).eval()
    dummy = torch.zeros(1, 3, input_size, input_size)
    names = wrapped.output_names()
    torch.onnx.export(wrapped, dummy, out_path, input_names=['input'], output_names=names,
                      dynamic_axes={'input': {0: 'batch'}, **{n: {0: 'batch'} for n in names}}, opset_version=13)


if __name__ == '__main__':
    # python3 -m trainer.export WEIGHTS OUT.onnx [OOD.pt]
    from .model import KutuNet
    weights, out = sys.argv[1], sys.argv[2]
    m = KutuNet.from_weights(weights)
    export_onnx(m, out, 128, torch.load(sys.argv[3]) if len(sys.argv) > 3 else None)
    print('wrote', out)
