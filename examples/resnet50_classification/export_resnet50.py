#!/usr/bin/env python3
"""The demo's model and picture: torchvision's ResNet-50 exported to ONNX, and one preprocessed image.

No weights can be downloaded here, so the network has torchvision's random initialisation (seeded, so
every run gives the same model); the picture is drawn, not photographed. The classes it predicts are
therefore arbitrary but deterministic, and PyTorch's own top-5 for the same input is written beside it,
so the demo can show that npurt computes the same answer.

  export_resnet50.py OUT_DIR      writes resnet50.onnx, dog.bin (1x3x224x224 float32, NCHW) and
                                  torch_top5.txt (index value per line)
"""
import os
import sys

import numpy as np
import torch
import torchvision


def picture():
    """A 224x224 RGB drawing (sky, grass, a brown blob), normalised as the ImageNet samples do."""
    h = w = 224
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.zeros((h, w, 3), np.float32)
    img[..., 0] = 110 + 60 * (yy < 120)
    img[..., 1] = 150 + 70 * (yy >= 120)
    img[..., 2] = 230 - 150 * (yy >= 120)
    blob = ((xx - 112) / 60) ** 2 + ((yy - 130) / 45) ** 2 < 1
    img[blob] = (140, 90, 40)
    mean = np.array([123.675, 116.28, 103.53], np.float32)
    std = np.array([58.395, 57.12, 57.375], np.float32)
    return ((img - mean) / std).transpose(2, 0, 1)[None].copy()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    model = torchvision.models.resnet50(weights=None).eval()
    x = torch.from_numpy(picture())
    torch.onnx.export(model, x, os.path.join(out, "resnet50.onnx"), input_names=["actual_input_1"],
                      output_names=["output1"], opset_version=17)
    x.numpy().astype(np.float32).tofile(os.path.join(out, "dog.bin"))
    with torch.no_grad():
        p = torch.softmax(model(x), dim=1)[0]
    top = torch.topk(p, 5)
    with open(os.path.join(out, "torch_top5.txt"), "w") as f:
        for v, i in zip(top.values.tolist(), top.indices.tolist()):
            f.write(f"{i} {v:.6f}\n")


if __name__ == "__main__":
    main()
