#!/usr/bin/env python3
"""Generates the allocation traces shipped in bench/traces/ (deterministic: same output every run).

  devlog.trace    PyTorch devlog "When does fragmentation occur in the CUDA caching allocator?": 8 x 16 MiB
                  then 4 x 32 MiB, and the reverse order (each phase freed before the next).
  kv_cache.trace  transformer decoding with a growing KV cache (HF-style concatenation: each step allocates
                  every layer's K and V one token longer and frees the old ones), per-step activations, a
                  prefill burst per request batch, three batches of different prompt lengths.
  random.trace    a seeded random workload: log-uniform sizes from 512 B to 64 MiB, random lifetimes,
                  two streams.

Usage: make_traces.py <output dir>
"""
import math
import os
import random
import sys

MiB = 1 << 20


class Writer:
    def __init__(self, path, header):
        self.f = open(path, "w")
        self.next_id = 1
        for line in header:
            self.f.write(f"# {line}\n")

    def alloc(self, size, stream=0):
        i = self.next_id
        self.next_id += 1
        self.f.write(f"a {i} {size}{' ' + str(stream) if stream else ''}\n")
        return i

    def free(self, i, stream=0):
        self.f.write(f"f {i}{' ' + str(stream) if stream else ''}\n")

    def close(self):
        self.f.close()


def devlog(path):
    w = Writer(path, ["PyTorch devlog pattern: 8 x 16 MiB, then 4 x 32 MiB; then the reverse", "capacity 1073741824"])
    for phases in (((8, 16), (4, 32)), ((4, 32), (8, 16))):
        for count, mib in phases:
            ids = [w.alloc(mib * MiB) for _ in range(count)]
            for i in ids:
                w.free(i)
    w.close()


def kv_cache(path):
    layers, heads, head_dim, dtype = 12, 16, 64, 2
    hidden = heads * head_dim
    w = Writer(path, ["transformer decoding with growing KV caches (concatenate-and-free per step)",
                      f"{layers} layers, {heads} heads x {head_dim}, fp16; 3 batches", "capacity 8589934592"])
    weights = [w.alloc(4 * hidden * hidden * dtype) for _ in range(layers)]  # stays live
    for batch, prompt, steps in ((8, 96, 96), (4, 200, 128), (16, 32, 64)):
        per_token = batch * hidden * dtype  # K (or V) bytes per token per layer
        # Prefill: activations for the whole prompt, then the initial caches.
        acts = [w.alloc(batch * prompt * hidden * dtype * k) for k in (1, 4, 1)]
        kv = [[w.alloc(prompt * per_token), w.alloc(prompt * per_token)] for _ in range(layers)]
        for a in acts:
            w.free(a)
        for t in range(prompt + 1, prompt + steps + 1):
            for layer in range(layers):
                x = w.alloc(batch * hidden * dtype)
                scores = w.alloc(batch * heads * t * dtype)
                for j in range(2):  # torch.cat([cache, new_token]) for K, then V
                    new = w.alloc(t * per_token)
                    w.free(kv[layer][j])
                    kv[layer][j] = new
                mlp = w.alloc(batch * 4 * hidden * dtype)
                w.free(scores)
                w.free(mlp)
                w.free(x)
        for pair in kv:
            for i in pair:
                w.free(i)
    for i in weights:
        w.free(i)
    w.close()


def random_trace(path, seed=20240607, events=6000):
    rng = random.Random(seed)
    w = Writer(path, [f"random workload, seed {seed}: log-uniform 512 B .. 64 MiB, random lifetimes, 2 streams",
                      "capacity 17179869184"])
    live = []
    budget = 1536 * MiB
    in_use = 0
    for _ in range(events):
        if live and (rng.random() < 0.45 or in_use > budget):
            k = rng.randrange(len(live))
            i, size, stream = live.pop(k)
            w.free(i, stream)
            in_use -= size
        else:
            size = int(math.exp(rng.uniform(math.log(512), math.log(64 * MiB))))
            stream = rng.choice((0, 0, 0, 1))
            live.append((w.alloc(size, stream), size, stream))
            in_use += size
    for i, size, stream in live:
        w.free(i, stream)
    w.close()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "bench", "traces")
    os.makedirs(out, exist_ok=True)
    devlog(os.path.join(out, "devlog.trace"))
    kv_cache(os.path.join(out, "kv_cache.trace"))
    random_trace(os.path.join(out, "random.trace"))


if __name__ == "__main__":
    main()
