"""MobileNetV2 (width 1.0) laid out like Keras' applications.MobileNetV2, so that Keras weights load as they
are: stride-2 convolutions pad only bottom/right (Keras ZeroPadding2D ((0,1),(0,1))), BatchNorm eps 1e-3,
ReLU6. Input: the server's ImageNet-normalised tensor; the Keras weights expect pixels in [0, 1], so the
first step undoes the normalisation inside the graph (the serving preprocessing stays the same)."""
import torch
from torch import nn
import torch.nn.functional as F

MEAN = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
STD = torch.tensor([0.229, 0.224, 0.225]).view(1, 3, 1, 1)
# (expansion, output channels, stride) of Keras' block_1 … block_16.
BLOCKS = [(6, 24, 2), (6, 24, 1), (6, 32, 2), (6, 32, 1), (6, 32, 1), (6, 64, 2), (6, 64, 1), (6, 64, 1),
          (6, 64, 1), (6, 96, 1), (6, 96, 1), (6, 96, 1), (6, 160, 2), (6, 160, 1), (6, 160, 1), (6, 320, 1)]


def bn(c):
    return nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)


class ConvBN(nn.Module):
    def __init__(self, cin, cout, k=1, stride=1, groups=1, act=True):
        super().__init__()
        self.stride, self.k = stride, k
        self.conv = nn.Conv2d(cin, cout, k, stride, 0, groups=groups, bias=False)
        self.bn = bn(cout)
        self.act = act

    def forward(self, x):
        if self.k == 3:
            x = F.pad(x, (0, 1, 0, 1) if self.stride == 2 else (1, 1, 1, 1))
        x = self.bn(self.conv(x))
        return F.relu6(x) if self.act else x


class InvertedResidual(nn.Module):
    def __init__(self, cin, cout, expansion, stride):
        super().__init__()
        hidden = cin * expansion
        self.expand = ConvBN(cin, hidden) if expansion != 1 else None
        self.depthwise = ConvBN(hidden, hidden, 3, stride, groups=hidden)
        self.project = ConvBN(hidden, cout, act=False)
        self.residual = stride == 1 and cin == cout

    def forward(self, x):
        y = self.expand(x) if self.expand is not None else x
        y = self.project(self.depthwise(y))
        return x + y if self.residual else y


class MobileNetV2Features(nn.Module):
    """Image (ImageNet-normalised, N×3×224×224) → 1280×7×7 feature map."""

    def __init__(self):
        super().__init__()
        self.stem = ConvBN(3, 32, 3, 2)
        blocks = [InvertedResidual(32, 16, 1, 1)]
        cin = 16
        for t, c, s in BLOCKS:
            blocks.append(InvertedResidual(cin, c, t, s))
            cin = c
        self.blocks = nn.Sequential(*blocks)
        self.top = ConvBN(320, 1280)
        self.register_buffer('mean', MEAN.clone())
        self.register_buffer('std', STD.clone())

    def forward(self, x):
        x = x * self.std + self.mean
        return self.top(self.blocks(self.stem(x)))


def keras_names():
    """Our parameter prefix → Keras layer name, for the converter."""
    pairs = [('stem', 'Conv1', 'bn_Conv1'),
             ('blocks.0.depthwise', 'expanded_conv_depthwise', 'expanded_conv_depthwise_BN'),
             ('blocks.0.project', 'expanded_conv_project', 'expanded_conv_project_BN'), ('top', 'Conv_1', 'Conv_1_bn')]
    for i in range(1, 17):
        for part in ('expand', 'depthwise', 'project'):
            pairs.append((f'blocks.{i}.{part}', f'block_{i}_{part}', f'block_{i}_{part}_BN'))
    return pairs
