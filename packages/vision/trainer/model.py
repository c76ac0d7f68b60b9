"""KutuNet: a small convolutional network for 128 px leaf photos (4 outputs: 3 crop classes + not_leaf)."""
import torch
from torch import nn

CLASSES = ['common_rust', 'healthy', 'other_disease', 'not_leaf']


def conv_bn(cin, cout, stride=1, groups=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Block(nn.Module):
    """Downsampling residual block: 3x3 stride-2 conv, 3x3 conv, with a 1x1 projection shortcut."""

    def __init__(self, cin, cout):
        super().__init__()
        self.body = nn.Sequential(conv_bn(cin, cout, 2), nn.Conv2d(cout, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout))
        self.skip = nn.Sequential(nn.AvgPool2d(2), nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.body(x) + self.skip(x))


class KutuNet(nn.Module):
    def __init__(self, num_classes=len(CLASSES), widths=(32, 48, 96, 160, 256), dropout=0.3):
        super().__init__()
        self.stem = conv_bn(3, widths[0], 2)  # 64x64
        blocks = [Block(widths[i], widths[i + 1]) for i in range(len(widths) - 1)]  # 32, 16, 8, 4
        self.features = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(dropout),
                                  nn.Linear(widths[-1], num_classes))

    @property
    def classifier(self):
        return self.head[3]

    def feature_map(self, x):
        """The last feature map (N×C×4×4 at 128 px), before pooling: the class activation maps use it."""
        return self.features(self.stem(x))

    def forward(self, x):
        return self.head(self.feature_map(x))


if __name__ == '__main__':
    m = KutuNet()
    print(sum(p.numel() for p in m.parameters()), 'parameters')
    print(m(torch.zeros(2, 3, 128, 128)).shape)
