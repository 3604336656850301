#!/usr/bin/python3
"""Converts the models of export_models.py with atc and runs each .om on the host (atc_host_run: every
node through npurt's operator backend, in the plan's memory layout) against PyTorch's output.

    /usr/bin/python3 tests/atc/export_models.py DIR --save-io
    /usr/bin/python3 tests/atc/check_numerics.py DIR --atc build/tools/atc/atc --run build/tests/atc/atc_host_run

Prints, per model, the conversion time, the plan and the largest absolute and relative differences;
exits non-zero if any model fails or differs by more than --tol (relative to the output's largest value).
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

SHAPES = {
    "resnet50": "actual_input_1:1,3,224,224",
    "mobilenet_v2": "actual_input_1:1,3,224,224",
    "efficientnet_b0": "actual_input_1:1,3,224,224",
    "googlenet": "actual_input_1:1,3,224,224",
    "bert_layer": "input_ids:1,128",
    "encoder_layer": "x:1,128,256",
}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("--atc", required=True)
    p.add_argument("--run", required=True)
    p.add_argument("--tol", type=float, default=1e-3)
    p.add_argument("--extra", default="", help="extra atc options")
    args = p.parse_args()
    failed = 0
    names = sorted({f[:-5] for f in os.listdir(args.dir) if f.endswith(".onnx")})
    for name in names:
        shape = SHAPES.get(name, "actual_input_1:1,3,224,224")
        onnx = os.path.join(args.dir, f"{name}.onnx")
        if not os.path.exists(os.path.join(args.dir, f"{name}.input.bin")):
            continue  # exported without --save-io
        out = os.path.join(args.dir, name)
        t0 = time.time()
        r = subprocess.run([args.atc, f"--model={onnx}", "--framework=5", f"--output={out}", f"--input_shape={shape}",
                            "--soc_version=Ascend310"] + args.extra.split(), capture_output=True, text=True)
        secs = time.time() - t0
        plan = [l for l in r.stdout.splitlines() if l.startswith("memory plan")]
        if r.returncode != 0:
            print(f"{name}: atc failed\n{r.stdout}{r.stderr}")
            failed += 1
            continue
        t1 = time.time()
        r = subprocess.run([args.run, out + ".om", out + ".npurt_out", out + ".input.bin"], capture_output=True, text=True)
        run_secs = time.time() - t1
        if r.returncode != 0:
            print(f"{name}: host run failed: {r.stderr}")
            failed += 1
            continue
        want = np.fromfile(out + ".output.bin", dtype=np.float32)
        got = np.fromfile(out + ".npurt_out0.bin", dtype=np.float32)
        if want.shape != got.shape:
            print(f"{name}: {got.size} output values, PyTorch has {want.size}")
            failed += 1
            continue
        diff = float(np.max(np.abs(want - got)))
        scale = float(np.max(np.abs(want))) or 1.0
        ok = diff <= args.tol * scale
        top = "" if want.size < 10 else f", top-1 {'same' if np.argmax(want) == np.argmax(got) else 'DIFFERENT'}"
        print(f"{name}: atc {secs:.2f} s, host run {run_secs:.2f} s, max |diff| {diff:.3g} (rel {diff / scale:.3g})"
              f"{top} {'OK' if ok else 'FAIL'}; {plan[0] if plan else ''}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
