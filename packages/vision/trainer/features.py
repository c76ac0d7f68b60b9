"""Frozen MobileNetV2 features of a prepared image set (trainer/mobilenet.py; weights in pretrained/, or the
backbone of a KutuLeafNet whose backbone was fine-tuned, such as the served model).

The backbone never changes during training, so every photo's pooled 1280-d feature vector is computed once
(per augmented view) and the classifier head is trained on the vectors in seconds.
"""
import os
import sys
import time

import numpy as np
import torch

from .mobilenet import MobileNetV2Features

PRETRAINED = os.path.join(os.path.dirname(__file__), '..', 'pretrained', 'mobilenet_v2_nsfwjs.pt')
INPUT_SIZE = 224
MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)


def backbone_state(state):
    """The MobileNetV2 part of a state dict: a whole network's (KutuLeafNet, or sweep.py's) `backbone.` keys
    without the prefix, or the state dict itself when it is a bare MobileNetV2 (pretrained/)."""
    if not any(k.startswith('backbone.') for k in state):
        return state
    return {k[len('backbone.'):]: v for k, v in state.items() if k.startswith('backbone.')}


def load_backbone(path=PRETRAINED):
    """A MobileNetV2 state dict (pretrained/), or a KutuLeafNet's weights.pt (its `backbone.` part)."""
    model = MobileNetV2Features()
    model.load_state_dict(backbone_state(torch.load(path, map_location='cpu')))
    return model.eval()


def normalize(nhwc_uint8):
    x = torch.from_numpy(np.ascontiguousarray(nhwc_uint8)).permute(0, 3, 1, 2).float() / 255.0
    return (x - MEAN) / STD


def resize_batch(nhwc, size):
    x = torch.from_numpy(np.ascontiguousarray(nhwc)).permute(0, 3, 1, 2).float()
    x = torch.nn.functional.interpolate(x, size=(size, size), mode='bilinear', align_corners=False, antialias=True)
    return x.round().clamp(0, 255).byte().permute(0, 2, 3, 1).numpy()


def view(data, kind, rng, size=INPUT_SIZE):
    """An augmented copy of a batch of NHWC images (any square size) at `size`."""
    n, s = data.shape[0], data.shape[1]
    if kind == 'orig':
        out = data
    elif kind == 'hflip':
        out = data[:, :, ::-1]
    elif kind == 'vflip':
        out = data[:, ::-1]
    elif kind.startswith('crop'):  # a random square crop of 55–85 % of the side, rescaled
        out = np.empty((n, size, size, 3), np.uint8)
        for i in range(n):
            c = int(s * rng.uniform(0.55, 0.85))
            y, x = rng.integers(0, s - c + 1), rng.integers(0, s - c + 1)
            out[i] = resize_batch(data[i:i + 1, y:y + c, x:x + c], size)[0]
        return out
    else:
        raise ValueError(kind)
    return out if s == size else resize_batch(out, size)


@torch.no_grad()
def extract(model, data, kinds=('orig',), batch=64, seed=0, log=None, size=INPUT_SIZE):
    """Pooled features, shape (len(kinds), N, 1280)."""
    rng = np.random.default_rng(seed)
    out = np.zeros((len(kinds), len(data), 1280), np.float32)
    t0 = time.time()
    for k, kind in enumerate(kinds):
        for s in range(0, len(data), batch):
            x = normalize(view(data[s:s + batch], kind, rng, size))
            out[k, s:s + len(x)] = model(x).mean(dim=(2, 3)).numpy()
        if log:
            log(f'features {kind}: {len(data)} images, {time.time() - t0:.0f} s')
    return out


class Pooled(torch.nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def forward(self, x):
        return self.backbone(x).mean(dim=(2, 3))


def export_backbone(out_path, weights=PRETRAINED, size=INPUT_SIZE):
    """The frozen backbone with pooled output, for feature extraction with onnxruntime (src/features.ts):
    about five times faster than PyTorch on these CPUs."""
    torch.onnx.export(Pooled(load_backbone(weights)).eval(), torch.zeros(1, 3, size, size), out_path,
                      input_names=['input'], output_names=['features'],
                      dynamic_axes={'input': {0: 'batch'}, 'features': {0: 'batch'}}, opset_version=13)


if __name__ == '__main__':
    # python3 -m trainer.features OUT.onnx [WEIGHTS [SIZE]]
    export_backbone(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else PRETRAINED,
                    int(sys.argv[3]) if len(sys.argv) > 3 else INPUT_SIZE)
