"""What the pyACL tests share: runtime setup, error codes, and ONNX models converted by the build's atc."""
import os
import subprocess
import tempfile
import unittest

import acl

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_FLOAT = 0
ACL_FORMAT_ND = 2
NPY_FLOAT32 = 11


def work_dir():
    path = os.environ.get("NPURT_TEST_WORK") or tempfile.mkdtemp(prefix="pyacl_")
    os.makedirs(path, exist_ok=True)
    return path


def convert(onnx_model, name, *atc_options):
    """Writes the ONNX model and converts it with atc (NPURT_ATC); returns the .om path, or skips the test
    when the environment has no atc."""
    atc = os.environ.get("NPURT_ATC")
    if not atc:
        raise unittest.SkipTest("NPURT_ATC is not set (ctest sets it to the build's atc)")
    import onnx
    directory = work_dir()
    onnx_path = os.path.join(directory, name + ".onnx")
    onnx.save(onnx_model, onnx_path)
    out = os.path.join(directory, name)
    subprocess.run([atc, "--model=" + onnx_path, "--framework=5", "--output=" + out, "--soc_version=Ascend310",
                    *atc_options], check=True, stdout=subprocess.DEVNULL)
    return out + ".om"


def linear_relu_onnx(weight, bias, batch, input_name="x"):
    """y = relu(x @ weight + bias): a model whose result numpy computes independently."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    k, n = weight.shape
    graph = helper.make_graph(
        [helper.make_node("MatMul", [input_name, "w"], ["mm"]),
         helper.make_node("Add", ["mm", "b"], ["pre"]),
         helper.make_node("Relu", ["pre"], ["y"])],
        "linear_relu",
        [helper.make_tensor_value_info(input_name, TensorProto.FLOAT, [batch, k])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, n])],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def has_onnx():
    try:
        import onnx  # noqa: F401
        return True
    except ImportError:
        return False


class RuntimeTestCase(unittest.TestCase):
    """A test class with the runtime initialised, device 0 set and a stream of its own (cls.stream)."""

    @classmethod
    def setUpClass(cls):
        ret = acl.init()
        assert ret in (ACL_SUCCESS, ACL_ERROR_REPEAT_INITIALIZE), ret
        assert acl.rt.set_device(0) == ACL_SUCCESS
        cls.stream, ret = acl.rt.create_stream()
        assert ret == ACL_SUCCESS, ret

    @classmethod
    def tearDownClass(cls):
        acl.rt.destroy_stream(cls.stream)
        acl.rt.reset_device(0)
        acl.finalize()
