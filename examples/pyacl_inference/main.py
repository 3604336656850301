#!/usr/bin/env python3
"""pyACL end to end: convert an ONNX model with atc, then load and run it from Python the way CANN's Python
samples do (acl.init -> acl.rt -> acl.mdl -> datasets -> execute -> read back), synchronously and on a stream
with a host callback served by a report thread; every result is checked against numpy.

Run it against an installed package:  source <P>/set_env.sh && python3 main.py
(atc must be on PATH and `import acl` must find the module: set_env.sh does both.)
"""
import os
import shutil
import subprocess
import sys
import tempfile
import threading

import numpy as np

import acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_CALLBACK_BLOCK = 1


def check(what, ret):
    if ret != ACL_SUCCESS:
        sys.exit("%s failed with %d: %s" % (what, ret, acl.get_recent_err_msg()))


def export_mlp(path, w1, b1, w2, b2):
    """A two-layer MLP with a softmax, written with onnx.helper (no framework needed)."""
    from onnx import TensorProto, helper, numpy_helper
    import onnx
    nodes = [helper.make_node("Gemm", ["x", "w1", "b1"], ["h"]), helper.make_node("Relu", ["h"], ["r"]),
             helper.make_node("Gemm", ["r", "w2", "b2"], ["logits"]),
             helper.make_node("Softmax", ["logits"], ["prob"], axis=1)]
    graph = helper.make_graph(nodes, "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, w1.shape[0]])],
                              [helper.make_tensor_value_info("prob", TensorProto.FLOAT, [8, w2.shape[1]])],
                              [numpy_helper.from_array(a, n) for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"),
                                                                          (b2, "b2"))])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), path)


def reference(x, w1, b1, w2, b2):
    logits = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    rng = np.random.default_rng(42)
    w1, b1 = rng.standard_normal((64, 128)).astype(np.float32) * 0.1, rng.standard_normal(128).astype(np.float32)
    w2, b2 = rng.standard_normal((128, 10)).astype(np.float32) * 0.1, rng.standard_normal(10).astype(np.float32)
    work = tempfile.mkdtemp(prefix="pyacl_example_")
    try:
        run(rng, work, w1, b1, w2, b2)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(rng, work, w1, b1, w2, b2):
    onnx_path, om_base = os.path.join(work, "mlp.onnx"), os.path.join(work, "mlp")
    export_mlp(onnx_path, w1, b1, w2, b2)
    subprocess.run(["atc", "--model=" + onnx_path, "--framework=5", "--output=" + om_base,
                    "--soc_version=Ascend310", "--input_shape=x:8,64"], check=True, stdout=subprocess.DEVNULL)
    print("atc: %s.om written" % om_base)

    check("acl.init", acl.init())
    check("acl.rt.set_device", acl.rt.set_device(0))
    context, ret = acl.rt.create_context(0)
    check("acl.rt.create_context", ret)
    stream, ret = acl.rt.create_stream()
    check("acl.rt.create_stream", ret)
    model_id, ret = acl.mdl.load_from_file(om_base + ".om")
    check("acl.mdl.load_from_file", ret)
    desc = acl.mdl.create_desc()
    check("acl.mdl.get_desc", acl.mdl.get_desc(desc, model_id))
    dims, ret = acl.mdl.get_input_dims(desc, 0)
    print("model %d: input %s %s, output %s" % (model_id, dims["name"], dims["dims"],
                                                 acl.mdl.get_output_dims(desc, 0)[0]["dims"]))

    # One device buffer per input and output, in datasets the runs reuse.
    datasets, buffers = [], []
    for count, size_of in ((acl.mdl.get_num_inputs(desc), acl.mdl.get_input_size_by_index),
                           (acl.mdl.get_num_outputs(desc), acl.mdl.get_output_size_by_index)):
        ds = acl.mdl.create_dataset()
        for i in range(count):
            size = size_of(desc, i)
            ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
            check("acl.rt.malloc", ret)
            buffers.append(ptr)
            _, ret = acl.mdl.add_dataset_buffer(ds, acl.create_data_buffer(ptr, size))
            check("acl.mdl.add_dataset_buffer", ret)
        datasets.append(ds)
    inputs, outputs = datasets
    in_ptr, out_ptr = buffers
    out_size = acl.mdl.get_output_size_by_index(desc, 0)

    def run_sync(x):
        data = x.tobytes()
        check("acl.rt.memcpy", acl.rt.memcpy(in_ptr, len(data), acl.util.bytes_to_ptr(data), len(data),
                                             ACL_MEMCPY_HOST_TO_DEVICE))
        check("acl.mdl.execute", acl.mdl.execute(model_id, inputs, outputs))
        host, ret = acl.rt.malloc_host(out_size)
        check("acl.rt.malloc_host", ret)
        check("acl.rt.memcpy", acl.rt.memcpy(host, out_size, out_ptr, out_size, ACL_MEMCPY_DEVICE_TO_HOST))
        result = np.frombuffer(acl.util.ptr_to_bytes(host, out_size), np.float32).reshape(8, 10).copy()
        check("acl.rt.free_host", acl.rt.free_host(host))
        return result

    worst = 0.0
    for _ in range(4):
        x = rng.standard_normal((8, 64)).astype(np.float32)
        worst = max(worst, float(np.abs(run_sync(x) - reference(x, w1, b1, w2, b2)).max()))
    print("acl.mdl.execute: 4 batches, max |npurt - numpy| = %.2e" % worst)
    if worst > 1e-5:
        sys.exit("results differ from numpy")

    # Asynchronous: execute_async on the stream, then a host callback (served by a report thread that
    # acl.util.start_thread starts and acl.rt.subscribe_report binds to the stream) reads the result.
    host_out, ret = acl.rt.malloc_host(out_size)
    check("acl.rt.malloc_host", ret)
    stop = threading.Event()
    seen = []

    def report_loop(ctx):
        acl.rt.set_context(ctx)
        while not stop.is_set():
            acl.rt.process_report(50)

    def on_done(expected):
        got = np.frombuffer(acl.util.ptr_to_bytes(host_out, out_size), np.float32).reshape(8, 10)
        seen.append(float(np.abs(got - expected).max()))

    tid, ret = acl.util.start_thread(report_loop, context)
    check("acl.util.start_thread", ret)
    check("acl.rt.subscribe_report", acl.rt.subscribe_report(tid, stream))
    x_async = rng.standard_normal((8, 64)).astype(np.float32)
    data = x_async.tobytes()
    check("acl.rt.memcpy_async", acl.rt.memcpy_async(in_ptr, len(data), acl.util.bytes_to_ptr(data), len(data),
                                                     ACL_MEMCPY_HOST_TO_DEVICE, stream))
    check("acl.mdl.execute_async", acl.mdl.execute_async(model_id, inputs, outputs, stream))
    check("acl.rt.memcpy_async", acl.rt.memcpy_async(host_out, out_size, out_ptr, out_size,
                                                     ACL_MEMCPY_DEVICE_TO_HOST, stream))
    check("acl.rt.launch_callback", acl.rt.launch_callback(on_done, reference(x_async, w1, b1, w2, b2),
                                                           ACL_CALLBACK_BLOCK, stream))
    check("acl.rt.synchronize_stream", acl.rt.synchronize_stream(stream))
    check("acl.rt.unsubscribe_report", acl.rt.unsubscribe_report(tid, stream))
    stop.set()
    check("acl.util.stop_thread", acl.util.stop_thread(tid))
    print("acl.mdl.execute_async + callback on the report thread: max |npurt - numpy| = %.2e" % seen[0])
    if len(seen) != 1 or seen[0] > 1e-5:
        sys.exit("the asynchronous run's result differs from numpy")

    check("acl.rt.free_host", acl.rt.free_host(host_out))
    for ds in datasets:
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            check("acl.destroy_data_buffer", acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i)))
        check("acl.mdl.destroy_dataset", acl.mdl.destroy_dataset(ds))
    for ptr in buffers:
        check("acl.rt.free", acl.rt.free(ptr))
    check("acl.mdl.unload", acl.mdl.unload(model_id))
    check("acl.mdl.destroy_desc", acl.mdl.destroy_desc(desc))
    check("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
    check("acl.rt.destroy_context", acl.rt.destroy_context(context))
    check("acl.rt.reset_device", acl.rt.reset_device(0))
    check("acl.finalize", acl.finalize())
    print("pyACL example passed")


if __name__ == "__main__":
    main()
