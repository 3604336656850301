"""Writes the seed corpora of the FuzzedDataProvider targets (fuzz_op_compile, fuzz_prof_config):
their inputs are streams of choices, not a format to write by hand, so the seeds are deterministic
pseudo-random byte strings of a few lengths; libFuzzer grows the corpus from them.
Usage: python3 tests/fuzz/seeds/make_random_seeds.py   (outputs committed)"""
import os
import random

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for target, sizes in {"fuzz_op_compile": (16, 64, 128, 256, 512, 1024),
                      "fuzz_prof_config": (8, 64, 200, 400, 800, 1600)}.items():
    out = os.path.join(root, "corpus", target)
    os.makedirs(out, exist_ok=True)
    rng = random.Random(target)  # a fixed seed per target: the files never change
    for n in sizes:
        with open(os.path.join(out, f"random_{n}"), "wb") as f:
            f.write(bytes(rng.randrange(1, 256) for _ in range(n)))
