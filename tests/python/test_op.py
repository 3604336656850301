"""acl.op: single operators on random data against numpy, attributes, handles, casts, errors."""
import os
import tempfile
import unittest
import warnings

import numpy as np

import acl
from pyacl_testing import RuntimeTestCase

ACL_SUCCESS = 0
ACL_FLOAT, ACL_FLOAT16, ACL_INT32 = 0, 1, 3
ACL_FORMAT_ND = 2
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
ACL_ENGINE_SYS, ACL_COMPILE_SYS = 0, 0
ACL_OP_DUMP_OP_AICORE_ARGS = 1
ACL_DTYPES = {np.float32: ACL_FLOAT, np.float16: ACL_FLOAT16, np.int32: ACL_INT32}


class Tensor:
    """A tensor descriptor, device memory and a data buffer over it, as a pyACL program makes them."""

    def __init__(self, test, shape, dtype, data=None):
        self.test, self.shape, self.dtype = test, list(shape), dtype
        self.desc = acl.create_tensor_desc(ACL_DTYPES[dtype], self.shape, ACL_FORMAT_ND)
        test.assertNotEqual(self.desc, 0)
        self.size = acl.get_tensor_desc_size(self.desc)
        self.ptr, ret = acl.rt.malloc(self.size, ACL_MEM_MALLOC_HUGE_FIRST)
        test.assertEqual(ret, ACL_SUCCESS)
        self.buf = acl.create_data_buffer(self.ptr, self.size)
        test.assertNotEqual(self.buf, 0)
        if data is not None:
            self.write(data)

    def write(self, data):
        host = np.ascontiguousarray(data, dtype=self.dtype)
        self.test.assertEqual(host.nbytes, self.size)
        ret = acl.rt.memcpy(self.ptr, self.size, host.ctypes.data, host.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
        self.test.assertEqual(ret, ACL_SUCCESS)

    def read(self):
        host = np.empty(self.shape, dtype=self.dtype)
        ret = acl.rt.memcpy(host.ctypes.data, host.nbytes, self.ptr, self.size, ACL_MEMCPY_DEVICE_TO_HOST)
        self.test.assertEqual(ret, ACL_SUCCESS)
        return host

    def close(self):
        self.test.assertEqual(acl.destroy_data_buffer(self.buf), ACL_SUCCESS)
        self.test.assertEqual(acl.rt.free(self.ptr), ACL_SUCCESS)
        acl.destroy_tensor_desc(self.desc)


class OpTest(RuntimeTestCase):
    def setUp(self):
        self.rng = np.random.default_rng(1234)
        self.tensors = []
        self.attr = acl.op.create_attr()
        self.assertNotEqual(self.attr, 0)

    def tearDown(self):
        for t in self.tensors:
            t.close()
        self.assertIsNone(acl.op.destroy_attr(self.attr))

    def tensor(self, shape, dtype=np.float32, data=None):
        t = Tensor(self, shape, dtype, data)
        self.tensors.append(t)
        return t

    def random(self, shape):
        return self.rng.standard_normal(shape).astype(np.float32)

    def sync(self):
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)

    def run_v2(self, op_type, inputs, outputs, attr=None):
        return acl.op.execute_v2(op_type, [t.desc for t in inputs], [t.buf for t in inputs],
                                 [t.desc for t in outputs], [t.buf for t in outputs],
                                 self.attr if attr is None else attr, self.stream)

    def test_add_execute_v2(self):
        a, b = self.random([4, 5]), self.random([4, 5])
        x1, x2, y = self.tensor([4, 5], data=a), self.tensor([4, 5], data=b), self.tensor([4, 5])
        ret = self.run_v2("Add", [x1, x2], [y])
        self.assertIsInstance(ret, int)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        np.testing.assert_allclose(y.read(), a + b, rtol=1e-6, atol=1e-6)

    def test_add_with_float_attr(self):
        a, b = self.random([3, 7]), self.random([3, 7])
        x1, x2, y = self.tensor([3, 7], data=a), self.tensor([3, 7], data=b), self.tensor([3, 7])
        self.assertEqual(acl.op.set_attr_float(self.attr, "alpha", 0.5), ACL_SUCCESS)
        self.assertEqual(self.run_v2("Add", [x1, x2], [y]), ACL_SUCCESS)
        self.sync()
        np.testing.assert_allclose(y.read(), a + 0.5 * b, rtol=1e-6, atol=1e-6)

    def test_matmul_with_bool_attr(self):
        a, b = self.random([6, 8]), self.random([5, 8])
        x1, x2, y = self.tensor([6, 8], data=a), self.tensor([5, 8], data=b), self.tensor([6, 5])
        self.assertEqual(acl.op.set_attr_bool(self.attr, "transpose_x2", True), ACL_SUCCESS)
        self.assertEqual(self.run_v2("MatMul", [x1, x2], [y]), ACL_SUCCESS)
        self.sync()
        np.testing.assert_allclose(y.read(), a @ b.T, rtol=1e-4, atol=1e-4)

    def test_deprecated_execute(self):
        a, b = self.random([9]), self.random([9])
        x1, x2, y = self.tensor([9], data=a), self.tensor([9], data=b), self.tensor([9])
        ret = acl.op.execute("Sub", [x1.desc, x2.desc], [x1.buf, x2.buf], [y.desc], [y.buf], self.attr, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        np.testing.assert_allclose(y.read(), a - b, rtol=1e-6, atol=1e-6)

    def test_handle(self):
        a, b = self.random([3, 4]), self.random([4, 2])
        x1, x2, y = self.tensor([3, 4], data=a), self.tensor([4, 2], data=b), self.tensor([3, 2])
        handle, ret = acl.op.create_handle("MatMul", [x1.desc, x2.desc], [y.desc], self.attr)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(handle, 0)
        for _ in range(2):  # a handle runs again with new data
            self.assertEqual(acl.op.execute_with_handle(handle, [x1.buf, x2.buf], [y.buf], self.stream), ACL_SUCCESS)
            self.sync()
            np.testing.assert_allclose(y.read(), a @ b, rtol=1e-4, atol=1e-4)
            a = self.random([3, 4])
            x1.write(a)
        self.assertIsNone(acl.op.destroy_handle(handle))
        # A destroyed handle is refused, not run.
        self.assertNotEqual(acl.op.execute_with_handle(handle, [x1.buf, x2.buf], [y.buf], self.stream), ACL_SUCCESS)

    def test_cast_and_cast_handle(self):
        a = self.random([2, 8])
        src, dst = self.tensor([2, 8], data=a), self.tensor([2, 8], np.float16)
        self.assertEqual(acl.op.cast(src.desc, src.buf, dst.desc, dst.buf, 0, self.stream), ACL_SUCCESS)
        self.sync()
        np.testing.assert_array_equal(dst.read(), a.astype(np.float16))
        handle, ret = acl.op.create_handle_for_cast(src.desc, dst.desc, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        dst.write(np.zeros([2, 8], np.float16))
        self.assertEqual(acl.op.execute_with_handle(handle, [src.buf], [dst.buf], self.stream), ACL_SUCCESS)
        self.sync()
        np.testing.assert_array_equal(dst.read(), a.astype(np.float16))
        acl.op.destroy_handle(handle)

    def test_compile_and_execute(self):
        a, b = self.random([5, 3]), self.random([5, 3])
        x1, x2, y = self.tensor([5, 3], data=a), self.tensor([5, 3], data=b), self.tensor([5, 3])
        descs, bufs = [x1.desc, x2.desc], [x1.buf, x2.buf]
        self.assertEqual(acl.op.compile("Mul", descs, [y.desc], self.attr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, None),
                         ACL_SUCCESS)
        ret = acl.op.compile_and_execute_v2("Mul", descs, bufs, [y.desc], [y.buf], self.attr, ACL_ENGINE_SYS,
                                            ACL_COMPILE_SYS, None, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        np.testing.assert_allclose(y.read(), a * b, rtol=1e-6, atol=1e-6)
        ret = acl.op.compile_and_execute("Maximum", descs, bufs, [y.desc], [y.buf], self.attr, ACL_ENGINE_SYS,
                                         ACL_COMPILE_SYS, None, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        np.testing.assert_array_equal(y.read(), np.maximum(a, b))

    def test_infer_shape(self):
        x1, x2 = self.tensor([3, 4]), self.tensor([4, 6])
        out = acl.create_tensor_desc(ACL_FLOAT, [-2], ACL_FORMAT_ND)  # unknown rank
        try:
            ret = acl.op.infer_shape("MatMul", [x1.desc, x2.desc], [x1.buf, x2.buf], 1, [out], self.attr)
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertEqual(acl.get_tensor_desc_num_dims(out), 2)
            self.assertEqual([acl.get_tensor_desc_dim(out, i) for i in range(2)], [3, 6])
            with self.assertRaises(ValueError):  # more outputs than descriptors
                acl.op.infer_shape("MatMul", [x1.desc, x2.desc], [x1.buf, x2.buf], 2, [out], self.attr)
        finally:
            acl.destroy_tensor_desc(out)

    def test_update_params(self):
        x1, y = self.tensor([4]), self.tensor([4])
        self.assertEqual(acl.op.update_params("Relu", [x1.desc], [y.desc], self.attr), ACL_SUCCESS)
        self.assertNotEqual(acl.op.update_params("NoSuchOperator", [x1.desc], [y.desc], self.attr), ACL_SUCCESS)

    def test_attr_setters(self):
        attr, op = self.attr, acl.op
        self.assertEqual(op.set_attr_bool(attr, "b", 1), ACL_SUCCESS)
        self.assertEqual(op.set_attr_int(attr, "i", -(2 ** 40)), ACL_SUCCESS)
        self.assertEqual(op.set_attr_float(attr, "f", 1.5), ACL_SUCCESS)
        self.assertEqual(op.set_attr_string(attr, "s", "text"), ACL_SUCCESS)
        self.assertEqual(op.set_attr_list_bool(attr, "lb", [True, False, 1]), ACL_SUCCESS)
        self.assertEqual(op.set_attr_list_int(attr, "li", [1, -2, 3]), ACL_SUCCESS)
        self.assertEqual(op.set_attr_list_int(attr, "empty", []), ACL_SUCCESS)
        self.assertEqual(op.set_attr_list_float(attr, "lf", [0.5, 2]), ACL_SUCCESS)
        self.assertEqual(op.set_attr_list_string(attr, "ls", ["a", "bc"]), ACL_SUCCESS)
        self.assertEqual(op.set_attr_list_list_int(attr, "lli", [[1, 2], [3], []]), ACL_SUCCESS)
        # pyACL's quirk: the data-type setters return the attr with ret.
        self.assertEqual(op.set_attr_data_type(attr, "dt", ACL_FLOAT16), (attr, ACL_SUCCESS))
        self.assertEqual(op.set_attr_list_data_type(attr, "ldt", [ACL_FLOAT, ACL_INT32]), (attr, ACL_SUCCESS))

    def test_attr_numpy_values_warn(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ret = acl.op.set_attr_list_int(self.attr, "li", np.array([1, 2, 3], dtype=np.int64))
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertTrue(any("list" in str(w.message) for w in caught))

    def test_attr_errors(self):
        op = acl.op
        self.assertNotEqual(op.set_attr_int(0, "i", 1), ACL_SUCCESS)  # null attr: an error code, no crash
        self.assertNotEqual(op.set_attr_int(12345, "i", 1), ACL_SUCCESS)
        self.assertIsNone(op.destroy_attr(12345))
        self.assertIsNone(op.destroy_attr(0))
        self.assertNotEqual(op.set_attr_list_int(0, "li", [1]), ACL_SUCCESS)
        self.assertEqual(op.set_attr_data_type(0, "dt", ACL_FLOAT)[0], 0)
        self.assertNotEqual(op.set_attr_data_type(0, "dt", ACL_FLOAT)[1], ACL_SUCCESS)
        with self.assertRaises(TypeError):
            op.set_attr_int(self.attr, "i", "1")
        with self.assertRaises(TypeError):
            op.set_attr_int(self.attr, "i", 1.5)
        with self.assertRaises(TypeError):
            op.set_attr_list_int(self.attr, "li", ["a"])
        with self.assertRaises(TypeError):
            op.set_attr_list_string(self.attr, "ls", "abc")
        with self.assertRaises(TypeError):
            op.set_attr_list_list_int(self.attr, "lli", [1, 2])
        with self.assertRaises(TypeError):
            op.create_attr(1)

    def test_bad_op_type_returns_error(self):
        x1, x2, y = self.tensor([4]), self.tensor([4]), self.tensor([4])
        ret = self.run_v2("NoSuchOperator", [x1, x2], [y])
        self.assertIsInstance(ret, int)
        self.assertNotEqual(ret, ACL_SUCCESS)
        handle, ret = acl.op.create_handle("NoSuchOperator", [x1.desc, x2.desc], [y.desc], self.attr)
        self.assertEqual(handle, 0)
        self.assertNotEqual(ret, ACL_SUCCESS)

    def test_bad_handles_and_lists(self):
        x1, x2, y = self.tensor([4]), self.tensor([4]), self.tensor([4])
        # Bogus descriptors and buffers are refused by the runtime with a code.
        ret = acl.op.execute_v2("Add", [12345, x2.desc], [x1.buf, x2.buf], [y.desc], [y.buf], 0, self.stream)
        self.assertNotEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(acl.op.execute_with_handle(12345, [x1.buf], [y.buf], self.stream), ACL_SUCCESS)
        self.assertNotEqual(acl.op.execute_with_handle(0, [], [], self.stream), ACL_SUCCESS)
        self.assertIsNone(acl.op.destroy_handle(0))
        self.assertIsNone(acl.op.destroy_handle(12345))
        self.assertNotEqual(acl.op.cast(0, 0, 0, 0, 0, self.stream), ACL_SUCCESS)
        self.assertEqual(acl.op.create_handle_for_cast(0, 0, 0)[0], 0)
        self.assertNotEqual(acl.op.create_handle_for_cast(0, 0, 0)[1], ACL_SUCCESS)
        self.assertNotEqual(acl.op.load(0, 0), ACL_SUCCESS)
        self.assertNotEqual(acl.op.set_model_dir("/nonexistent/npurt-op-models"), ACL_SUCCESS)
        # Descriptor and buffer lists of different lengths would make C read past one of them.
        with self.assertRaises(ValueError):
            acl.op.execute_v2("Add", [x1.desc, x2.desc], [x1.buf], [y.desc], [y.buf], 0, self.stream)
        with self.assertRaises(ValueError):
            acl.op.execute("Add", [x1.desc, x2.desc], [x1.buf, x2.buf], [y.desc], [], 0, self.stream)
        with self.assertRaises(TypeError):
            acl.op.execute_v2("Add", x1.desc, [x1.buf], [y.desc], [y.buf], 0, self.stream)
        with self.assertRaises(TypeError):
            acl.op.execute_v2("Add", [x1.desc, "x"], [x1.buf, x2.buf], [y.desc], [y.buf], 0, self.stream)
        with self.assertRaises(TypeError):
            acl.op.execute_v2("Add", [x1.desc, -1], [x1.buf, x2.buf], [y.desc], [y.buf], 0, self.stream)

    def test_queue_num(self):
        self.assertEqual(acl.op.set_max_op_queue_num(64), ACL_SUCCESS)
        self.assertNotEqual(acl.op.set_max_op_queue_num(0), ACL_SUCCESS)
        with self.assertRaises(TypeError):
            acl.op.set_max_op_queue_num(-1)

    def test_custom_operators_are_refused(self):
        # npurt has no custom AI-core kernels: registration fails with a code, and a callable is still checked.
        called = []
        ret = acl.op.register_compile_func("MyOp", lambda *args: called.append(args))
        self.assertNotEqual(ret, ACL_SUCCESS)
        with self.assertRaises(TypeError):
            acl.op.register_compile_func("MyOp", 42)
        self.assertNotEqual(acl.op.unregister_compile_func("MyOp"), ACL_SUCCESS)
        self.assertNotEqual(acl.op.create_kernel("MyOp", "k0", "kernel", 0, 0, ACL_ENGINE_SYS, 0), ACL_SUCCESS)
        self.assertNotEqual(acl.op.set_kernel_args(0, "k0", 1, 0, 0), ACL_SUCCESS)
        self.assertNotEqual(acl.op.set_kernel_workspace_sizes(0, 2, [64, 128]), ACL_SUCCESS)
        self.assertNotEqual(acl.op.set_kernel_workspace_sizes(0, 0, 0), ACL_SUCCESS)
        with self.assertRaises(ValueError):
            acl.op.set_kernel_workspace_sizes(0, 3, [64])
        self.assertEqual(called, [])

    def test_dump_args(self):
        a, b = self.random([4]), self.random([4])
        x1, x2, y = self.tensor([4], data=a), self.tensor([4], data=b), self.tensor([4])
        with tempfile.TemporaryDirectory() as path:
            self.assertEqual(acl.op.start_dump_args(ACL_OP_DUMP_OP_AICORE_ARGS, path), ACL_SUCCESS)
            try:
                self.assertEqual(self.run_v2("Add", [x1, x2], [y]), ACL_SUCCESS)
                self.sync()
            finally:
                self.assertEqual(acl.op.stop_dump_args(ACL_OP_DUMP_OP_AICORE_ARGS), ACL_SUCCESS)
            files = [f for _, _, names in os.walk(path) for f in names]
            self.assertTrue(files, "no operator dump written under " + path)
        np.testing.assert_allclose(y.read(), a + b, rtol=1e-6, atol=1e-6)


if __name__ == "__main__":
    unittest.main()
