#!/usr/bin/env python3
"""pyACL's cost over the C API (docs/python.md), run by scripts/bench.

  pyacl_call_ns           one binding call that does almost nothing in C (acl.get_data_buffer_size_v2)
  pyacl_model_execute_us  acl.mdl.execute_async + acl.rt.synchronize_stream of a one-operator model (Add of two
                          1024-float vectors, converted by atc from ONNX): the model bench/models/
                          model_overhead_bench.cc runs from C as model_execute_us, so collect.py derives
                          pyacl_execute_overhead_us = pyacl_model_execute_us - model_execute_us

Writes Google Benchmark's JSON shape (one row per repetition; collect.py takes the median).
    pyacl_bench.py --atc <atc> --out <json> [--repetitions 5]   (PYTHONPATH must find the acl module)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import acl

N = 1024


def check(what, ret):
    if ret != 0:
        sys.exit("%s failed with %d: %s" % (what, ret, acl.get_recent_err_msg()))


def add_model(atc, work):
    import onnx
    from onnx import TensorProto, helper
    graph = helper.make_graph([helper.make_node("Add", ["a", "b"], ["c"])], "add",
                              [helper.make_tensor_value_info(n, TensorProto.FLOAT, [N]) for n in ("a", "b")],
                              [helper.make_tensor_value_info("c", TensorProto.FLOAT, [N])])
    path = os.path.join(work, "add.onnx")
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)
    subprocess.run([atc, "--model=" + path, "--framework=5", "--output=" + os.path.join(work, "add"),
                    "--soc_version=Ascend310"], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(work, "add.om")


def per_call(fn, seconds):
    """Median over batches of the time per call, in ns (batches sized to ~10 ms)."""
    n = 1
    while True:  # size a batch
        t = time.perf_counter_ns()
        for _ in range(n):
            fn()
        dt = time.perf_counter_ns() - t
        if dt > 10_000_000:
            break
        n *= 2
    samples, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        t = time.perf_counter_ns()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter_ns() - t) / n)
    samples.sort()
    return samples[len(samples) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--atc", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=0.5, help="per repetition and benchmark")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="pyacl_bench_")
    om = add_model(args.atc, work)

    check("acl.init", acl.init())
    check("acl.rt.set_device", acl.rt.set_device(0))
    stream, ret = acl.rt.create_stream()
    check("acl.rt.create_stream", ret)
    model_id, ret = acl.mdl.load_from_file(om)
    check("acl.mdl.load_from_file", ret)
    datasets, ptrs = [acl.mdl.create_dataset(), acl.mdl.create_dataset()], []
    for i in range(3):
        ptr, ret = acl.rt.malloc(N * 4, 0)
        check("acl.rt.malloc", ret)
        ptrs.append(ptr)
        data = np.random.default_rng(i).standard_normal(N).astype(np.float32).tobytes()
        check("acl.rt.memcpy", acl.rt.memcpy(ptr, N * 4, acl.util.bytes_to_ptr(data), N * 4, 1))
        _, ret = acl.mdl.add_dataset_buffer(datasets[0 if i < 2 else 1], acl.create_data_buffer(ptr, N * 4))
        check("acl.mdl.add_dataset_buffer", ret)
    inputs, outputs = datasets
    buffer = acl.mdl.get_dataset_buffer(inputs, 0)

    def execute():
        acl.mdl.execute_async(model_id, inputs, outputs, stream)
        acl.rt.synchronize_stream(stream)

    rows = []
    for rep in range(args.repetitions):
        for name, fn, unit, scale in (("pyacl_call_ns", lambda: acl.get_data_buffer_size_v2(buffer), "ns", 1.0),
                                      ("pyacl_model_execute_us", execute, "us", 1e-3)):
            rows.append({"name": name, "run_name": name, "run_type": "iteration", "repetition_index": rep,
                         "real_time": per_call(fn, args.seconds) * scale, "time_unit": unit})
    for ds in datasets:
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i))
        acl.mdl.destroy_dataset(ds)
    for ptr in ptrs:
        acl.rt.free(ptr)
    acl.mdl.unload(model_id)
    acl.rt.destroy_stream(stream)
    acl.rt.reset_device(0)
    acl.finalize()
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"context": {"load_avg": list(os.getloadavg())}, "benchmarks": rows}, f, indent=1)
    for r in rows[-2:]:
        print("%-24s %10.3f %s" % (r["name"], r["real_time"], r["time_unit"]))


if __name__ == "__main__":
    main()
