#!/usr/bin/env python3
"""End-to-end check of a torchvision / hand-written model through npurt (issue 15).

Builds the model in PyTorch with random weights (batch-norm statistics randomised too, so that folding
them into the convolutions is exercised), exports it to ONNX, converts it with npurt's atc using the
samples' command-line form, runs it with msame on a random input, and compares the output with PyTorch's:
relative error (max |npurt - torch| / max |torch|) must be <= 1e-3 in fp32.

Exit status: 0 pass, 1 fail, 77 skipped (no PyTorch under this interpreter: run it with Debian's
/usr/bin/python3 and python3-torch python3-torchvision python3-onnx installed).

  reference_check.py --atc ATC --msame MSAME --model resnet50|mobilenet_v2|googlenet|bert_layer --work DIR
"""
import argparse
import glob
import os
import subprocess
import sys
import time

try:
    import numpy as np
    import torch
    import torchvision
except ImportError as e:  # pragma: no cover - environment dependent
    print(f"reference_check: skipped: {e} (needs python3-torch python3-torchvision python3-numpy)")
    sys.exit(77)


class BertLayer(torch.nn.Module):
    """One BERT-base encoder layer, written out as torch exports it: attention, residual + LayerNorm,
    GELU feed-forward, residual + LayerNorm."""

    def __init__(self, hidden=768, heads=12, ffn=3072):
        super().__init__()
        self.heads, self.dh = heads, hidden // heads
        self.q, self.k, self.v = (torch.nn.Linear(hidden, hidden) for _ in range(3))
        self.o = torch.nn.Linear(hidden, hidden)
        self.ln1, self.ln2 = torch.nn.LayerNorm(hidden), torch.nn.LayerNorm(hidden)
        self.up, self.down = torch.nn.Linear(hidden, ffn), torch.nn.Linear(ffn, hidden)

    def forward(self, x):
        b, s, h = x.shape
        split = lambda t: t.reshape(b, s, self.heads, self.dh).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        att = torch.softmax(q @ k.transpose(-1, -2) / (self.dh ** 0.5), dim=-1)
        ctx = (att @ v).transpose(1, 2).reshape(b, s, h)
        x = self.ln1(x + self.o(ctx))
        return self.ln2(x + self.down(torch.nn.functional.gelu(self.up(x))))


def build(name):
    torch.manual_seed(0)
    if name == "resnet50":
        m, shape = torchvision.models.resnet50(weights=None), (1, 3, 224, 224)
    elif name == "mobilenet_v2":
        m, shape = torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224)
    elif name == "googlenet":
        m, shape = torchvision.models.googlenet(weights=None, aux_logits=False, init_weights=True), (1, 3, 224, 224)
    elif name == "bert_layer":
        m, shape = BertLayer(), (1, 128, 768)
    else:
        raise SystemExit(f"unknown model {name}")
    gen = torch.Generator().manual_seed(1)
    for mod in m.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            c = mod.num_features
            mod.running_mean.copy_(torch.randn(c, generator=gen) * 0.1)
            mod.running_var.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
            mod.weight.data.copy_(torch.rand(c, generator=gen) * 0.5 + 0.75)
            mod.bias.data.copy_(torch.randn(c, generator=gen) * 0.1)
    return m.eval(), shape


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--atc", required=True)
    ap.add_argument("--msame", required=True)
    ap.add_argument("--model", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--opset", type=int, default=17)
    args = ap.parse_args()
    work = os.path.join(args.work, args.model)
    os.makedirs(work, exist_ok=True)
    model, shape = build(args.model)
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        want = model(x).numpy().astype(np.float32)
    onnx_path = os.path.join(work, f"{args.model}.onnx")
    t0 = time.time()
    torch.onnx.export(model, x, onnx_path, input_names=["actual_input_1"], output_names=["output1"],
                      opset_version=args.opset)
    t_export = time.time() - t0
    x.numpy().astype(np.float32).tofile(os.path.join(work, "input.bin"))
    shape_arg = ",".join(str(d) for d in shape)
    cmd = [args.atc, f"--model={onnx_path}", "--framework=5", f"--output={os.path.join(work, args.model)}",
           f"--input_shape=actual_input_1:{shape_arg}", "--soc_version=Ascend310"]
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True)
    t_atc = time.time() - t0
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        print(f"FAIL: atc exited {r.returncode}")
        return 1
    out_dir = os.path.join(work, "out")
    r = subprocess.run([args.msame, "--model", os.path.join(work, f"{args.model}.om"), "--input",
                        os.path.join(work, "input.bin"), "--output", out_dir, "--outfmt", "BIN", "--loop", "2"],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        print(f"FAIL: msame exited {r.returncode}")
        return 1
    produced = sorted(glob.glob(os.path.join(out_dir, "*", f"{args.model}_output_0.bin")))
    if not produced:
        print("FAIL: msame wrote no output")
        return 1
    got = np.fromfile(produced[-1], dtype=np.float32)
    if got.size != want.size:
        print(f"FAIL: {got.size} output values, torch has {want.size}")
        return 1
    err = float(np.max(np.abs(got - want.reshape(-1))) / max(1e-12, float(np.max(np.abs(want)))))
    print(f"{args.model}: relative error {err:.3g} (bound 1e-3); export {t_export:.1f} s, atc {t_atc:.1f} s")
    if not np.isfinite(err) or err > 1e-3:
        print("FAIL")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
