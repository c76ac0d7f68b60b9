"""KutuNet: a small convolutional network for 128 px leaf photos (4 outputs: 3 crop classes + not_leaf)."""
import torch
from torch import nn

CLASSES = ['common_rust', 'healthy', 'other_disease', 'not_leaf']
# The crops a farmer can name. With crop heads (`train.py --crop-heads`; measured and not shipped, see
# v1.2's model card) each has its own linear head on the shared features, trained only on that crop's
# photos and on non-leaf photos; the general head answers when the crop is not known.
CROPS = ['maize', 'beans']


def crop_of(name):
    """rust3 names beans 'bean'; the app says 'beans'. None for crops without a head."""
    name = {'bean': 'beans'}.get(name, name)
    return name if name in CROPS else None


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
        self.body = nn.Sequential(conv_bn(cin, cout, 2), nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                                  nn.BatchNorm2d(cout))
        self.skip = nn.Sequential(nn.AvgPool2d(2), nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(self.body(x) + self.skip(x))


class KutuNet(nn.Module):
    def __init__(self, num_classes=len(CLASSES), widths=(32, 48, 96, 160, 256), dropout=0.3, crop_heads=False):
        super().__init__()
        self.stem = conv_bn(3, widths[0], 2)  # 64x64
        blocks = [Block(widths[i], widths[i + 1]) for i in range(len(widths) - 1)]  # 32, 16, 8, 4
        self.features = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(dropout),
                                  nn.Linear(widths[-1], num_classes))
        self.crop_heads = nn.ModuleList(nn.Linear(widths[-1], num_classes) for _ in (CROPS if crop_heads else []))

    @property
    def classifier(self):
        return self.head[3]

    def feature_map(self, x):
        """The last feature map (N×C×4×4 at 128 px), before pooling: the class activation maps use it."""
        return self.features(self.stem(x))

    def forward(self, x):
        return self.head(self.feature_map(x))

    def all_logits(self, x):
        """General logits (N×K) and each crop head's (N×crops×K, None without crop heads) from one pass."""
        pooled = self.head[:3](self.feature_map(x))  # pool, flatten, dropout
        per_crop = torch.stack([h(pooled) for h in self.crop_heads], 1) if len(self.crop_heads) else None
        return self.head[3](pooled), per_crop

    @classmethod
    def from_weights(cls, path, crop_heads=False):
        """A KutuNet from weights.pt; it has crop heads when the weights have them or `crop_heads` asks for
        them, and new crop heads start as copies of the general head."""
        state = torch.load(path, map_location='cpu')
        had = any(k.startswith('crop_heads.') for k in state)
        model = cls(crop_heads=crop_heads or had)
        model.load_state_dict(state, strict=had or not crop_heads)
        if crop_heads and not had:
            for h in model.crop_heads:
                h.load_state_dict(model.classifier.state_dict())
        return model


if __name__ == '__main__':
    m = KutuNet()
    print(sum(p.numel() for p in m.parameters()), 'parameters')
    print(m(torch.zeros(2, 3, 128, 128)).shape)
