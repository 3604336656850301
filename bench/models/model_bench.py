#!/usr/bin/env python3
"""Offline-model benchmarks against ONNX Runtime (issue 15), run by scripts/bench.

For each model: export it from PyTorch (tests/models/reference_check.py's builders, random weights),
convert it with npurt's atc, then alternate, round after round on the same machine, npurt (msame --loop)
and ONNX Runtime's CPU provider (onnxruntime-node, 2 intra-op threads, all graph optimisations) on the
same ONNX file and the same input. Writes a Google-Benchmark-style JSON that bench/collect.py merges:

  <model>_npurt_ms, <model>_ort_ms      median time per inference
  resnet50_b1/b8_torch_ms               PyTorch eager on the same input (torch_bench.py), in the same rounds
  planner_<model>_arena_mib, planner_<model>_lower_bound_mib   atc's memory plan (from its summary line)
  resnet50_load_ms, resnet50_read_ms    loading the .om against reading the file
  gear_switch_gear_ms, gear_switch_static_ms   (issue 16) ResNet-50 with batch gears 1/2/4/8 chosen at random
                                        per execution, against static models of those batches on the same
                                        sequence (bench/models/gear_switch; --gear-switch BINARY)

  dynshape_hit_ms, dynshape_static_ms, dynshape_first_seen_ms_<len>, dynshape_static_first_ms_<len>,
  dynshape_hit_rate, dynshape_mem_mib, dynshape_static_max_mem_mib, dynshape_load_ms, dynshape_static_load_ms
                                        (issue 16) a BERT-base layer converted with --input_shape=...:1,32~256,768
                                        at lengths drawn from 32/64/128/256 against static models of those
                                        lengths (bench/models/dynshape; --dynshape BINARY)

  multibranch_single_ms, multibranch_multi_ms, multibranch_speedup, multibranch_bound
                                        (issue 15) torchvision's GoogLeNet at batch 1 converted with
                                        --enable_single_stream=false (its Inception branches on several streams)
                                        against one stream, alternating; the bound is the critical-path one: the
                                        single-stream operators' durations (msprof, the last of 3 runs) summed,
                                        over the longest dependency chain of them (--multibranch)

collect.py derives <model>_over_ort (ORT time / npurt time: > 1 means npurt is faster),
planner_over_lower_bound_<model> and gear_switch_over_static.

  model_bench.py --atc ATC --msame MSAME --work DIR --out JSON [--rounds 3] [--runs 10] [--models ...]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tests", "models"))

MODELS = {  # name -> (builder name, batch, atc options beyond the defaults)
    "resnet50_b1": ("resnet50", 1, []),
    "resnet50_b8": ("resnet50", 8, []),
    "mobilenet_v2": ("mobilenet_v2", 1, []),
    "bert_layer": ("bert_layer", 1, []),
    "googlenet": ("googlenet", 1, []),
    # What atc's default Winograd gives ResNet-50: the direct algorithm only (docs/atc.md, "Implementations").
    "resnet50_b1_direct": ("resnet50", 1, ["--op_select_implmode=high_precision"]),
    # bf16 convolutions (fp32 where the CPU lacks AVX512-BF16), against ORT's fp32: not the headline ratio.
    "resnet50_b1_bf16": ("resnet50", 1, ["--precision_mode=allow_mix_precision_bf16"]),
    "resnet50_b8_bf16": ("resnet50", 8, ["--precision_mode=allow_mix_precision_bf16"]),
}


# Also timed against PyTorch eager (bench/models/torch_bench.py, 2 threads), alternating in the same rounds:
# <model>_torch_ms, and collect.py's resnet50_b1/b8_over_torch_eager (the design notes' anchor).
TORCH_EAGER = ("resnet50_b1", "resnet50_b8")


def ensure_ort(work):
    ort_dir = os.path.join(work, "ort")
    if not os.path.isdir(os.path.join(ort_dir, "node_modules", "onnxruntime-node")):
        os.makedirs(ort_dir, exist_ok=True)
        env = dict(os.environ, ONNXRUNTIME_NODE_INSTALL="skip")
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", ort_dir, "onnxruntime-node"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
    return ort_dir


def export(name, work):
    import numpy as np
    import torch
    import reference_check
    builder, batch, _ = MODELS[name]
    model, shape = reference_check.build(builder)
    shape = (batch,) + tuple(shape[1:])
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(2))
    onnx_path = os.path.join(work, f"{name}.onnx")
    if not os.path.exists(onnx_path):
        torch.onnx.export(model, x, onnx_path, input_names=["actual_input_1"], output_names=["output1"],
                          opset_version=17)
    x.numpy().astype(np.float32).tofile(os.path.join(work, f"{name}.bin"))
    return onnx_path, shape


def median_after_first(times):
    return statistics.median(times[1:] if len(times) > 1 else times)


def atc(args, onnx_path, output, *options):
    r = subprocess.run([args.atc, f"--model={onnx_path}", "--framework=5", f"--output={output}",
                        "--soc_version=Ascend310", *options], capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr, file=sys.stderr)
        raise SystemExit(f"atc failed on {output}")


def run_sequence(args, binary, model, onnx_path, stem, values, shape_option, steps):
    """Static models of `values` (atc with shape_option(value)), then `binary` on `model`.om against them;
    returns the JSON line it prints."""
    statics = []
    for v in values:
        out = os.path.join(args.work, f"{stem}{v}")
        atc(args, onnx_path, out, shape_option(v))
        statics.append(f"{v}={out}.om")
    r = subprocess.run([binary, model + ".om", *statics, "--steps", str(steps)], capture_output=True, text=True,
                       check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def gear_switch(args):
    """ResNet-50 with batch gears 1/2/4/8 against static models of those batches (issue 16)."""
    onnx_path, _ = export("resnet50_b1", args.work)
    gear = os.path.join(args.work, "resnet50_gears")
    atc(args, onnx_path, gear, "--input_shape=actual_input_1:-1,3,224,224", "--dynamic_batch_size=1,2,4,8")
    m = run_sequence(args, args.gear_switch, gear, onnx_path, "resnet50_static_b", (1, 2, 4, 8),
                     lambda b: f"--input_shape=actual_input_1:{b},3,224,224", args.gear_steps)
    print(f"gears: {m['gear_ms']:.2f} ms per execution against {m['static_ms']:.2f} ms for static models "
          f"({m['steps']} random batches of 1/2/4/8)")
    return {"gear_switch_gear_ms": m["gear_ms"], "gear_switch_static_ms": m["static_ms"]}


def critical_path_bound(args, om_path, msprof):
    """(sum of the operators' durations, the longest chain of them) for one single-stream run of om_path."""
    prof = os.path.join(args.work, "multibranch_prof")
    subprocess.run(["rm", "-rf", prof], check=True)
    # msame's --output keeps its result files in the work directory (without it they land in the caller's).
    subprocess.run([sys.executable, msprof, f"--output={prof}", args.msame, "--model", om_path, "--loop", "3",
                    "--output", os.path.join(args.work, "out")], capture_output=True, text=True, check=True)
    import csv
    import glob
    summary = glob.glob(os.path.join(prof, "PROF_*", "mindstudio_profiler_output", "op_summary_*.csv"))[0]
    rows = list(csv.DictReader(open(summary, encoding="utf-8")))
    duration = {}
    for r in rows:  # the last run's duration of each operator
        duration[r["Op Name"]] = float(r["Task Duration(us)"])
    js = os.path.join(args.work, "multibranch.json")
    subprocess.run([args.atc, "--mode=1", f"--om={om_path}", f"--json={js}"], capture_output=True, check=True)
    nodes = json.load(open(js, encoding="utf-8"))["nodes"]
    producer, longest = {}, []
    for i, n in enumerate(nodes):
        start = max((longest[producer[t]] for t in n.get("inputs", []) if t in producer), default=0.0)
        longest.append(start + duration.get(n["name"], 0.0))
        for t in n.get("outputs", []):
            producer[t] = i
    return sum(duration.get(n["name"], 0.0) for n in nodes), max(longest)


def multibranch(args):
    """GoogLeNet's Inception branches on several streams against one stream (issue 15)."""
    onnx_path, shape = export("googlenet", args.work)
    single, multi = os.path.join(args.work, "googlenet_single"), os.path.join(args.work, "googlenet_multi")
    atc(args, onnx_path, single, "--enable_single_stream=true")
    atc(args, onnx_path, multi, "--enable_single_stream=false")
    times = {single: [], multi: []}
    for _ in range(args.rounds):
        for om in (single, multi):
            r = subprocess.run([args.msame, "--model", om + ".om", "--output", os.path.join(args.work, "out"),
                                "--loop", str(args.runs + 1)], capture_output=True, text=True, check=True)
            times[om].append(median_after_first([float(t) for t in re.findall(r"Inference time: ([\d.]+)ms", r.stdout)]))
    t1, tm = statistics.median(times[single]), statistics.median(times[multi])
    total, chain = critical_path_bound(args, single + ".om", args.multibranch)
    out = {"multibranch_single_ms": t1, "multibranch_multi_ms": tm, "multibranch_speedup": t1 / tm,
           "multibranch_bound": total / chain if chain > 0 else 1.0}
    print(f"multibranch: one stream {t1:.2f} ms, several {tm:.2f} ms, speed-up {t1 / tm:.3f}, critical-path bound "
          f"{out['multibranch_bound']:.3f}")
    return out


def dynshape(args):
    """A BERT-base layer with a sequence-length range against static models of its lengths (issue 16)."""
    import torch
    import reference_check
    model, shape = reference_check.build("bert_layer")
    onnx_path = os.path.join(args.work, "bert_layer_dyn.onnx")
    if not os.path.exists(onnx_path):
        x = torch.randn(*shape, generator=torch.Generator().manual_seed(2))
        torch.onnx.export(model, x, onnx_path, input_names=["actual_input_1"], output_names=["output1"],
                          opset_version=17, dynamic_axes={"actual_input_1": {1: "seq"}, "output1": {1: "seq"}})
    lengths = (32, 64, 128, 256)
    dyn = os.path.join(args.work, "bert_layer_dynshape")
    atc(args, onnx_path, dyn, f"--input_shape=actual_input_1:1,{lengths[0]}~{lengths[-1]},768")
    m = run_sequence(args, args.dynshape, dyn, onnx_path, "bert_layer_static_", lengths,
                     lambda n: f"--input_shape=actual_input_1:1,{n},768", args.dynshape_steps)
    firsts = ", ".join(f"{k}: {v:.1f} ms" for k, v in m["first_seen_ms"].items())
    print(f"dynamic shapes: {m['hit_ms']:.2f} ms per execution of a compiled length against {m['static_ms']:.2f} ms "
          f"for static models ({m['steps']} random lengths); first sight {firsts}; hit rate {m['hit_rate']:.3f}; "
          f"memory {m['dynamic_mem_mib']:.1f} MiB against {m['static_max_mem_mib']:.1f} MiB for the longest static")
    out = {"dynshape_hit_ms": m["hit_ms"], "dynshape_static_ms": m["static_ms"], "dynshape_hit_rate": m["hit_rate"],
           "dynshape_mem_mib": m["dynamic_mem_mib"], "dynshape_static_max_mem_mib": m["static_max_mem_mib"],
           "dynshape_load_ms": m["dynamic_load_ms"], "dynshape_static_load_ms": m["static_load_ms"]}
    for k, v in m["first_seen_ms"].items():
        out[f"dynshape_first_seen_ms_{k}"] = v
    for k, v in m["static_first_ms"].items():
        out[f"dynshape_static_first_ms_{k}"] = v
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--atc", required=True)
    ap.add_argument("--msame", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--models", nargs="*", default=[m for m in MODELS if m != "googlenet"])
    ap.add_argument("--gear-switch", help="bench_gear_switch: also measure batch gears against static models")
    ap.add_argument("--gear-steps", type=int, default=40)
    ap.add_argument("--dynshape", help="bench_dynshape: also measure a dynamic-shape BERT layer against static models")
    ap.add_argument("--dynshape-steps", type=int, default=40)
    ap.add_argument("--multibranch", help="tools/msprof/msprof: also measure GoogLeNet on several streams against one")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    ort_dir = ensure_ort(args.work)
    node_env = dict(os.environ, NODE_PATH=os.path.join(ort_dir, "node_modules"))
    results = {}
    for name in args.models:
        onnx_path, shape = export(name, args.work)
        om = os.path.join(args.work, name)
        r = subprocess.run([args.atc, f"--model={onnx_path}", "--framework=5", f"--output={om}",
                            "--input_shape=actual_input_1:" + ",".join(map(str, shape)), "--soc_version=Ascend310",
                            *MODELS[name][2]], capture_output=True, text=True)
        if r.returncode != 0:
            print(r.stdout + r.stderr, file=sys.stderr)
            raise SystemExit(f"atc failed on {name}")
        plan = re.search(r"arena ([\d.]+) MiB \(lower bound ([\d.]+) MiB", r.stdout + r.stderr)
        if plan:
            results[f"planner_{name}_arena_mib"] = float(plan.group(1))
            results[f"planner_{name}_lower_bound_mib"] = float(plan.group(2))
        npurt, ort, torch_eager = [], [], []
        for _ in range(args.rounds):
            r = subprocess.run([args.msame, "--model", om + ".om", "--input", os.path.join(args.work, f"{name}.bin"),
                                "--output", os.path.join(args.work, "out"), "--outfmt", "BIN",
                                "--loop", str(args.runs + 1)], capture_output=True, text=True, check=True)
            npurt.append(median_after_first([float(t) for t in re.findall(r"Inference time: ([\d.]+)ms", r.stdout)]))
            r = subprocess.run(["node", os.path.join(HERE, "ort_bench.js"), onnx_path,
                                os.path.join(args.work, f"{name}.bin"), ",".join(map(str, shape)), str(args.runs), "2"],
                               capture_output=True, text=True, check=True, env=node_env)
            ort.append(statistics.median(json.loads(r.stdout.strip().splitlines()[-1])["ms"]))
            if name in TORCH_EAGER:
                r = subprocess.run([sys.executable, os.path.join(HERE, "torch_bench.py"), MODELS[name][0],
                                    os.path.join(args.work, f"{name}.bin"), ",".join(map(str, shape)), str(args.runs),
                                    "2"], capture_output=True, text=True, check=True)
                torch_eager.append(statistics.median(json.loads(r.stdout.strip().splitlines()[-1])["ms"]))
        results[f"{name}_npurt_ms"] = statistics.median(npurt)
        results[f"{name}_ort_ms"] = statistics.median(ort)
        if torch_eager:
            results[f"{name}_torch_ms"] = statistics.median(torch_eager)
            print(f"{name}: PyTorch eager {results[f'{name}_torch_ms']:.2f} ms")
        print(f"{name}: npurt {results[f'{name}_npurt_ms']:.2f} ms, ORT {results[f'{name}_ort_ms']:.2f} ms "
              f"(medians of {args.rounds} alternating rounds of {args.runs})")
        if name == "resnet50_b1":
            t0 = time.perf_counter()
            with open(om + ".om", "rb") as f:
                f.read()
            results["resnet50_read_ms"] = 1000 * (time.perf_counter() - t0)
            r = subprocess.run([args.msame, "--model", om + ".om", "--output", os.path.join(args.work, "out"),
                                "--loop", "1"], capture_output=True, text=True, check=True)
            m = re.search(r"load model .* success \(([\d.]+) ms\)", r.stdout)
            if m:
                results["resnet50_load_ms"] = float(m.group(1))
    if args.gear_switch:
        results.update(gear_switch(args))
    if args.dynshape:
        results.update(dynshape(args))
    if args.multibranch:
        results.update(multibranch(args))
    doc = {"context": {"load_avg": list(os.getloadavg())},
           "benchmarks": [{"name": k, "run_name": k, "run_type": "iteration", "real_time": v,
                           "time_unit": "ms" if k.endswith("_ms") else "ns"} for k, v in results.items()]}
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
