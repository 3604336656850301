#!/usr/bin/env python3
"""The PyTorch-eager side of bench/models/model_bench.py (issue 15's resnet50_over_torch_eager, the design
notes' anchor): runs one of tests/models/reference_check.py's models in eager mode on the CPU, 2 intra-op
threads, under torch.inference_mode(), on the given input, and prints one JSON line with the per-run times
in milliseconds.

  torch_bench.py BUILDER INPUT.bin D0,D1,... RUNS WARMUP
"""
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "models"))
import reference_check  # noqa: E402


def main():
    builder, path, dims, runs, warmup = sys.argv[1:6]
    torch.set_num_threads(2)
    model, _ = reference_check.build(builder)
    model.eval()
    x = torch.from_numpy(np.fromfile(path, dtype=np.float32).reshape([int(d) for d in dims.split(",")]))
    ms = []
    with torch.inference_mode():
        for _ in range(int(warmup)):
            model(x)
        for _ in range(int(runs)):
            t0 = time.perf_counter()
            model(x)
            ms.append(1000 * (time.perf_counter() - t0))
    print(json.dumps({"ms": ms}))


if __name__ == "__main__":
    main()
