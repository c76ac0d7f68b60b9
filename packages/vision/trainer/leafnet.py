"""KutuLeafNet: the frozen MobileNetV2 feature extractor (pretrained/, from nsfwjs) with a linear head.

The served graph outputs `logits` (temperature-scaled), `cam` (class activation maps: the head applied
to every cell of the 7×7 feature map; logits are their mean) and `ood` (squared Mahalanobis distance of
the pooled features to the nearest leaf class, per principal direction: about 1 for a typical leaf).
"""
import torch
from torch import nn

from .mobilenet import MobileNetV2Features

FEATURES = 1280


class KutuLeafNet(nn.Module):
    def __init__(self, num_classes=4, ood_dims=64, leaf_classes=3):
        super().__init__()
        self.backbone = MobileNetV2Features()
        self.classifier = nn.Linear(FEATURES, num_classes)
        self.register_buffer('temperature', torch.ones(()))
        self.register_buffer('ood_projection', torch.zeros(FEATURES, ood_dims))
        self.register_buffer('ood_means', torch.zeros(leaf_classes, FEATURES))

    def feature_map(self, x):
        return self.backbone(x)

    def set_head(self, W, b, temperature, ood):
        with torch.no_grad():
            self.classifier.weight.copy_(torch.as_tensor(W))
            self.classifier.bias.copy_(torch.as_tensor(b))
            self.temperature.fill_(float(temperature))
            self.ood_projection = torch.as_tensor(ood.P).clone()
            self.ood_means = torch.as_tensor(ood.means).clone()

    def outputs(self, x):
        f = self.feature_map(x)
        cam = (torch.einsum('nchw,kc->nkhw', f, self.classifier.weight)
               + self.classifier.bias.view(1, -1, 1, 1)) / self.temperature
        pooled = f.mean(dim=(2, 3))
        diff = pooled.unsqueeze(1) - self.ood_means.unsqueeze(0)  # N×3×1280
        dist = (torch.matmul(diff, self.ood_projection) ** 2).sum(-1) / self.ood_projection.shape[1]
        return cam.mean(dim=(2, 3)), cam, dist.min(dim=1).values

    def forward(self, x):
        return self.outputs(x)[0]


class Exported(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model.outputs(x)


def export_onnx(model, out_path, input_size=224):
    model.eval()
    dummy = torch.zeros(1, 3, input_size, input_size)
    torch.onnx.export(Exported(model).eval(), dummy, out_path, input_names=['input'],
                      output_names=['logits', 'cam', 'ood'],
                      dynamic_axes={'input': {0: 'batch'}, 'logits': {0: 'batch'}, 'cam': {0: 'batch'},
                                    'ood': {0: 'batch'}}, opset_version=13)
