#!/usr/bin/env python3
"""Merges Google Benchmark JSON files into one flat JSON object of named numbers.

    collect.py [--out results.json] [--table | --markdown] bench_a.json bench_b.json ...

Each benchmark is named after the key it produces; the suffix gives the unit:
    <key>_ns, <key>_us   median time of one operation (the median over repetitions of the benchmark's
                         p50_ns counter, i.e. of the per-sample medians; see bench/common/bench_util.h)
    <key>_gbps           1e9 bytes per second: bytes_per_op / that median time
Per-call benchmarks listed in P99_KEYS also give <key>_p99_<unit>. Ratios are derived below. With
--table, a target table (pass/fail) follows the JSON on stdout; the exit status never depends on it.
Standard library only.
"""

import argparse
import json
import statistics
import sys

# Derived ratios: name -> (numerator, denominator).
RATIOS = {
    "roundtrip_over_handoff": ("roundtrip_us", "handoff_us"),
    "h2d_over_memcpy": ("memcpy_h2d_gbps", "host_memcpy_gbps"),
    "alloc_over_malloc": ("alloc_free_ns", "malloc_free_ns"),
    "alloc_mt_over_st": ("alloc_free_mt_ns", "alloc_free_ns"),  # memory (issue 4)
    # Kernels (issue 3).
    "kernel_roundtrip_over_handoff": ("kernel_roundtrip_us", "handoff_us"),
    # The same against the floor measured interleaved with it in bench_kernel (no target: context).
    "kernel_roundtrip_over_kernel_handoff": ("kernel_roundtrip_us", "kernel_handoff_us"),
    "ascendc_add_over_memcpy": ("ascendc_add_gbps", "host_memcpy_gbps"),
    "vector_add_over_memcpy": ("vector_add_gbps", "host_memcpy_gbps"),
    "gemm_over_onednn": ("gemm_1024_gflops", "onednn_gemm_1024_gflops"),  # operators (issue 6)
    "conv_over_onednn": ("conv_resnet_gflops", "onednn_conv_resnet_gflops"),
    "ascendc_matmul_over_onednn": ("ascendc_matmul_1024_gflops", "onednn_matmul_1024_gflops"),  # Ascend C cube (issue 18)
    "ascendc_matmul_over_onednn_bf16": ("ascendc_matmul_1024_gflops", "onednn_matmul_bf16_1024_gflops"),
    "tdt_pingpong_over_cv": ("tdt_queue_pingpong_us", "cv_queue_pingpong_us"),  # TDT (issue 7)
    # Graphs (issue 7): bench/graph/graph_bench.cc.
    "graph_over_stream": ("graph_replay_per_node_ns", "stream_issue_per_node_ns"),
    "graph_over_stream_fill": ("graph_replay_fill_per_node_ns", "stream_issue_fill_per_node_ns"),
    "ipc_over_local": ("ipc_event_roundtrip_us", "ipc_local_roundtrip_us"),  # runtime completion (issue 7)
    "op_dump_on_over_off": ("op_dump_on_us", "op_dump_off_us"),  # data dump (issue 7)
    # The operator backend as a model compiles it: bench/op_backend/op_backend_bench.cc.
    "conv_const_over_runtime_w": ("conv_c256_const_w_us", "conv_c256_runtime_w_us"),
    "conv_nhwc_const_over_runtime_w": ("conv_c256_nhwc_const_w_us", "conv_c256_nhwc_runtime_w_us"),
    "conv_relu_fused_over_separate": ("conv_c256_relu_fused_us", "conv_c256_relu_separate_us"),
    "conv_add_relu_fused_over_separate": ("conv_c256_add_relu_fused_us", "conv_c256_add_relu_separate_us"),
    "fc_const_over_runtime_w": ("fc_2048x1000_const_w_us", "fc_2048x1000_runtime_w_us"),
    "allreduce_busbw_over_memcpy": ("allreduce_busbw_gbps", "host_memcpy_gbps"),  # collectives (issue 17)
    "allreduce_over_gloo": ("allreduce_2proc_gloo_ms", "allreduce_2proc_hccl_ms"),
    "allreduce_ipc_over_gloo": ("allreduce_2proc_gloo_ms", "allreduce_2proc_ipc_ms"),
    "allreduce_hier_over_flat": ("allreduce_2x2_flat_ms", "allreduce_2x2_hier_ms"),
    "dvpp_decode_over_turbojpeg": ("turbojpeg_decode_ms", "dvpp_jpeg_decode_ms"),  # DVPP (docs/dvpp.md)
}

# Offline models (issue 15): bench/models/model_bench.py (ONNX Runtime time over npurt time: > 1 is faster).
for _m in ("resnet50_b1", "resnet50_b8", "mobilenet_v2", "bert_layer"):
    RATIOS[f"{_m}_over_ort"] = (f"{_m}_ort_ms", f"{_m}_npurt_ms")
    RATIOS[f"planner_over_lower_bound_{_m}"] = (f"planner_{_m}_arena_mib", f"planner_{_m}_lower_bound_mib")
# ResNet-50 with the direct algorithm only, and with bf16 convolutions (reported, no target: ORT stays fp32).
for _m in ("resnet50_b1_direct", "resnet50_b1_bf16", "resnet50_b8_bf16"):
    RATIOS[f"{_m}_over_ort"] = (f"{_m}_ort_ms", f"{_m}_npurt_ms")
# The design notes' anchor: PyTorch eager (2 threads) time over npurt's, reported.
RATIOS["resnet50_over_torch_eager"] = ("resnet50_b1_torch_ms", "resnet50_b1_npurt_ms")
RATIOS["resnet50_b8_over_torch_eager"] = ("resnet50_b8_torch_ms", "resnet50_b8_npurt_ms")

# Dynamic shapes (issue 16): a gear model against static models of its batches, same random sequence.
RATIOS["gear_switch_over_static"] = ("gear_switch_gear_ms", "gear_switch_static_ms")
RATIOS["dynshape_hit_over_static"] = ("dynshape_hit_ms", "dynshape_static_ms")
# Model streams (issue 15): the speed-up of GoogLeNet's branches on several streams over its critical-path bound.
RATIOS["multibranch_of_bound"] = ("multibranch_speedup", "multibranch_bound")

# Differences: key -> (minuend, subtrahend), in the minuend's unit.
DIFFERENCES = {
    "model_execute_overhead_us": ("model_execute_us", "op_execute_us"),  # offline models (issue 15)
    # pyACL (bench/python/pyacl_bench.py): the same one-op model run from Python, against C.
    "pyacl_execute_overhead_us": ("pyacl_model_execute_us", "model_execute_us"),
}

# Keys whose samples are single operations, so that their p99 means something per call.
P99_KEYS = ("roundtrip_us", "handoff_us", "event_wait_us", "kernel_roundtrip_us", "kernel_handoff_us",
            "ipc_event_roundtrip_us")

# Targets (issue "runtime core"): key -> (comparison, bound).
TARGETS = {
    "launch_enqueue_ns": ("<=", 150.0),
    "roundtrip_us": ("<=", 5.0),
    "roundtrip_over_handoff": ("<=", 2.0),
    "event_wait_us": ("<=", 10.0),
    "h2d_over_memcpy": (">=", 0.9),
    "h2d_over_memcpy_paired": (">=", 0.9),  # the same, both copies timed back to back (bench/memcpy)
    "alloc_free_ns": ("<=", 100.0),  # memory issue 4 (the runtime-core bound was 500)
    # Memory (issue 4): bench/alloc/alloc_bench.cc.
    "alloc_over_malloc": ("<=", 2.0),  # issue 14 (was 3.0)
    "alloc_mt_over_st": ("<=", 2.0),
    "alloc_vs_driver": (">=", 100.0),
    "frag_ratio_devlog": ("<=", 1.15),
    "frag_ratio_kv_cache": ("<=", 1.15),
    "frag_ratio_random": ("<=", 1.15),
    "frag_ratio_devlog_default": ("<=", 1.15),  # issue 14: the default configuration, through aclrtGetMemInfo
    # Observability (issue 5): ratios and a count, reported by bench/prof/prof_bench.cc.
    "prof_off_overhead": ("<=", 1.02),
    "prof_on_overhead": ("<=", 1.5),
    "log_off_overhead": ("<=", 1.02),
    "prof_records_kept": (">=", 1.0),  # 1,000,000 tasks profiled, no record lost
    # Race detector (issue 14): bench/racecheck/racecheck_bench.cc. racecheck_on_overhead and
    # racecheck_sync_copy_on_overhead are reported without a target.
    "racecheck_off_overhead": ("<=", 1.02),
    # Kernels (issue 3): bench/kernel/kernel_bench.cc.
    "kernel_launch_enqueue_ns": ("<=", 200.0),
    "kernel_roundtrip_over_handoff": ("<=", 2.0),
    "kernel_scaling_per_core": (">=", 0.9),
    # Issue 14: the two-stream copy/compute pipeline (bench/kernel/pipeline_bench.cc).
    "copy_compute_overlap": (">=", 0.85),
    "ascendc_add_over_memcpy": (">=", 0.3),
    "vector_add_over_memcpy": (">=", 0.6),
    "gemm_over_onednn": (">=", 0.95),  # operators (issue 6)
    "conv_over_onednn": (">=", 0.9),
    "ascendc_matmul_over_onednn": (">=", 0.5),  # issue 18: bench/cube/cube_bench.cc
    "op_dispatch_us": ("<=", 1.0),
    "op_cache_hit_us": ("<=", 3.0),
    # Graphs (issue 7): bench/graph/graph_bench.cc.
    "graph_replay_per_node_ns": ("<=", 100.0),
    "graph_over_stream": ("<=", 0.5),
    "ipc_event_roundtrip_us": ("<=", 20.0),  # runtime completion (issue 7): bench/ipc/ipc_bench.cc
    # Offline models (issue 15): bench/models/.
    "model_execute_overhead_us": ("<=", 5.0),
    "resnet50_b1_over_ort": (">=", 1.2),
    "resnet50_b8_over_ort": (">=", 1.2),
    "planner_over_lower_bound_resnet50_b1": ("<=", 1.05),
    "gear_switch_over_static": ("<=", 1.05),  # issue 16
    "dynshape_hit_over_static": ("<=", 1.10),  # issue 16
    "multibranch_of_bound": (">=", 0.8),  # issue 15: multibranch_speedup at least 0.8 of the critical-path bound
    "planner_over_lower_bound_mobilenet_v2": ("<=", 1.05),
    "planner_over_lower_bound_bert_layer": ("<=", 1.05),
    # Collectives (issue 17): bench/hccl/hccl_bench.cc.
    "allreduce_busbw_over_memcpy": (">=", 0.5),
    "allreduce_small_us": ("<=", 20.0),
    "allreduce_over_gloo": (">=", 0.9),
    "overlap_efficiency": (">=", 0.85),
}

NS_PER = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def key_of(entry):
    """The benchmark's own name: run_name up to the first '/' (drops min_time:..., manual_time)."""
    return entry.get("run_name", entry["name"]).split("/")[0]


def unit_of(key):
    return key.rsplit("_", 1)[-1] if "_" in key else ""


def collect(paths):
    # key -> list of per-repetition rows (or the median aggregate when present)
    medians, singles, load = {}, {}, []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        load.extend(doc.get("context", {}).get("load_avg", [])[:1])
        for b in doc.get("benchmarks", []):
            if b.get("error_occurred"):
                print(f"collect.py: {b['name']} failed: {b.get('error_message')}", file=sys.stderr)
                continue
            key = key_of(b)
            if b.get("run_type") == "aggregate":
                if b.get("aggregate_name") == "median":
                    medians[key] = b
            else:
                singles.setdefault(key, []).append(b)

    def field(key, name):
        if key in medians and name in medians[key]:
            return float(medians[key][name])
        rows = [float(r[name]) for r in singles.get(key, []) if name in r]
        return statistics.median(rows) if rows else None

    def per_op_ns(key, counter):
        v = field(key, counter)
        if v is not None:
            return v
        # No sampler counters: fall back to Google Benchmark's mean time per iteration.
        row = medians.get(key) or (singles.get(key) or [None])[0]
        if row is None:
            return None
        return float(row["real_time"]) * NS_PER.get(row.get("time_unit", "ns"), 1.0)

    out = {}
    for key in sorted(set(medians) | set(singles)):
        unit = unit_of(key)
        p50 = per_op_ns(key, "p50_ns")
        if p50 is None or p50 <= 0:
            continue
        if unit in NS_PER:
            out[key] = p50 / NS_PER[unit]
            if key in P99_KEYS:
                p99 = field(key, "p99_ns")
                if p99 is not None:
                    out[key[: -len(unit)] + "p99_" + unit] = p99 / NS_PER[unit]
        elif unit == "gflops":  # operators (issue 6): flops_per_op / ns per op
            flops = field(key, "flops_per_op")
            if flops is not None:
                out[key] = flops / p50
        elif unit == "gbps":
            nbytes = field(key, "bytes_per_op")
            if nbytes is not None:
                out[key] = nbytes / p50  # bytes per ns == 1e9 bytes per second
        else:
            out[key] = p50
    for name, (num, den) in RATIOS.items():
        if num in out and den in out and out[den] > 0:
            out[name] = out[num] / out[den]
    for name, (a, b) in DIFFERENCES.items():
        if a in out and b in out:
            out[name] = out[a] - out[b]
    if load:
        out["load_avg_1m"] = max(load)
    return {k: round(v, 4) for k, v in out.items()}


def target_rows(results):
    """(key, value or None, comparison, bound, held) for every target."""
    for key, (op, bound) in TARGETS.items():
        value = results.get(key)
        held = value is not None and (value <= bound if op == "<=" else value >= bound)
        yield key, value, op, bound, held


def table(results):
    lines = [f"{'key':<26} {'value':>10}   {'target':<10} result"]
    for key, value, op, bound, held in target_rows(results):
        if value is None:
            lines.append(f"{key:<26} {'-':>10}   {op} {bound:<7g} MISSING")
        else:
            lines.append(f"{key:<26} {value:>10.4g}   {op} {bound:<7g} {'pass' if held else 'FAIL'}")
    lines.append(f"targets held: {sum(row[4] for row in target_rows(results))}/{len(TARGETS)}")
    if results.get("load_avg_1m", 0) > 1.5:
        lines.append(f"note: 1-minute load average was {results['load_avg_1m']:.1f} on "
                     "this machine during the run; absolute figures are noisy, compare the ratios")
    return "\n".join(lines)


def markdown(results):
    """The target table as Markdown (docs/benchmarks.md "Measured")."""
    lines = ["| key | value | target | result |", "| --- | ---: | --- | --- |"]
    for key, value, op, bound, held in target_rows(results):
        shown = "-" if value is None else f"{value:.4g}"
        result = "missing" if value is None else ("pass" if held else "**FAIL**")
        lines.append(f"| `{key}` | {shown} | {op} {bound:g} | {result} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", help="write the merged JSON object here")
    ap.add_argument("--table", action="store_true", help="print the target table after the JSON")
    ap.add_argument("--markdown", action="store_true", help="print only the target table, as Markdown")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    results = collect(args.files)
    text = json.dumps(results, indent=2, sort_keys=True)
    if args.markdown:
        print(markdown(results))
        return 0
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)
    if args.table:
        print()
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
