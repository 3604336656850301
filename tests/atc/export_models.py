#!/usr/bin/python3
"""Exports the models atc is checked on to ONNX (run with Debian's /usr/bin/python3: torch 1.13,
torchvision 0.14, onnx 1.12).

    /usr/bin/python3 tests/atc/export_models.py OUT_DIR [--opset 14] [--only resnet50,...]

Models (random weights from a fixed seed, eval mode, batch 1):
  resnet50, mobilenet_v2, efficientnet_b0, googlenet   torchvision, input "actual_input_1" 1x3x224x224
  bert_layer        a BERT-base-like encoder layer with embeddings (Gather), hand-written: seq 128,
                    hidden 768, 12 heads, Erf GELU, LayerNorm; input "input_ids" int64 1x128
  encoder_layer     torch.nn.TransformerEncoderLayer(batch_first=True), input "x" 1x128x256
  and, with --only, more torchvision classifiers (EXTRA: resnet18, densenet121, convnext_tiny, vit_b_16, ...)
The .onnx files are not committed.
"""
import argparse
import math
import os
import sys

import torch
import torch.nn as nn


class BertLayer(nn.Module):
    def __init__(self, vocab=30522, hidden=768, heads=12, ffn=3072, seq=128):
        super().__init__()
        self.heads, self.hidden = heads, hidden
        self.word = nn.Embedding(vocab, hidden)
        self.pos = nn.Embedding(seq, hidden)
        self.ln0 = nn.LayerNorm(hidden, eps=1e-12)
        self.q, self.k, self.v = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
        self.o = nn.Linear(hidden, hidden)
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.up, self.down = nn.Linear(hidden, ffn), nn.Linear(ffn, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, input_ids):
        b, s = input_ids.shape
        pos = torch.arange(s, dtype=torch.long).unsqueeze(0)
        x = self.ln0(self.word(input_ids) + self.pos(pos))
        d = self.hidden // self.heads

        def split(t):
            return t.view(b, s, self.heads, d).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d), dim=-1)
        ctx = (att @ v).transpose(1, 2).reshape(b, s, self.hidden)
        x = self.ln1(x + self.o(ctx))
        h = nn.functional.gelu(self.up(x))
        return self.ln2(x + self.down(h))


def build(name):
    import torchvision
    if name == "resnet50":
        return torchvision.models.resnet50(weights=None), torch.randn(1, 3, 224, 224), "actual_input_1"
    if name == "mobilenet_v2":
        return torchvision.models.mobilenet_v2(weights=None), torch.randn(1, 3, 224, 224), "actual_input_1"
    if name == "efficientnet_b0":
        return torchvision.models.efficientnet_b0(weights=None), torch.randn(1, 3, 224, 224), "actual_input_1"
    if name == "googlenet":
        m = torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=True)
        return m, torch.randn(1, 3, 224, 224), "actual_input_1"
    if name in EXTRA:  # more torchvision classifiers, for coverage
        return getattr(torchvision.models, name)(weights=None), torch.randn(1, 3, 224, 224), "actual_input_1"
    if name == "bert_layer":
        return BertLayer(), torch.randint(0, 30522, (1, 128)), "input_ids"
    if name == "encoder_layer":
        layer = nn.TransformerEncoderLayer(d_model=256, nhead=8, dim_feedforward=1024, batch_first=True)
        return layer, torch.randn(1, 128, 256), "x"
    raise SystemExit(f"unknown model {name}")


def energize(model):
    """Weights whose outputs are far from zero, so a numerical comparison means something (torchvision's
    own inits leave GoogLeNet's and MobileNet's random outputs near 0), and BatchNorm statistics that
    are not the identity (so that folding them is exercised)."""
    g = torch.Generator().manual_seed(1)
    for m in model.modules():
        if isinstance(m, (nn.Conv2d, nn.Linear)):
            fan_in = m.weight[0].numel()
            with torch.no_grad():
                m.weight.normal_(0.0, math.sqrt(2.0 / fan_in), generator=g)
                if m.bias is not None:
                    m.bias.uniform_(-0.1, 0.1, generator=g)
        elif isinstance(m, nn.BatchNorm2d):
            with torch.no_grad():
                m.weight.uniform_(0.8, 1.2, generator=g)
                m.bias.uniform_(-0.1, 0.1, generator=g)
                m.running_mean.uniform_(-0.1, 0.1, generator=g)
                m.running_var.uniform_(0.8, 1.2, generator=g)


EXTRA = ["resnet18", "squeezenet1_1", "densenet121", "shufflenet_v2_x1_0", "mnasnet1_0", "regnet_y_400mf",
         "convnext_tiny", "vit_b_16", "mobilenet_v3_small", "inception_v3", "vgg11"]
ALL = ["resnet50", "mobilenet_v2", "efficientnet_b0", "googlenet", "bert_layer", "encoder_layer"]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out_dir")
    p.add_argument("--opset", type=int, default=14)
    p.add_argument("--only", default=",".join(ALL))
    p.add_argument("--no-fold", action="store_true",
                   help="export with do_constant_folding=False (BatchNormalization nodes and Shape chains stay in "
                        "the graph: atc folds them)")
    p.add_argument("--save-io", action="store_true",
                   help="also write <name>.input.bin and <name>.output.bin (raw, PyTorch's result) for check_numerics.py")
    args = p.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for name in args.only.split(","):
        torch.manual_seed(0)
        model, example, input_name = build(name)
        if args.save_io and name not in ("bert_layer", "encoder_layer"):
            energize(model)
        model.eval()
        path = os.path.join(args.out_dir, f"{name}.onnx")
        # Not under torch.no_grad(): TransformerEncoderLayer would take its fused fast path
        # (aten::_transformer_encoder_layer_fwd), which has no ONNX export.
        torch.onnx.export(model, (example,), path, input_names=[input_name], output_names=["output"],
                          opset_version=args.opset, do_constant_folding=not args.no_fold)
        if args.save_io:
            with torch.no_grad():
                out = model(example)
            example.numpy().tofile(os.path.join(args.out_dir, f"{name}.input.bin"))
            out.float().numpy().tofile(os.path.join(args.out_dir, f"{name}.output.bin"))
        print(f"{path} {os.path.getsize(path) / 2**20:.1f} MiB (opset {args.opset})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
