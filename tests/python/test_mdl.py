"""acl.mdl end to end: an ONNX model converted by atc, loaded, described and executed through pyACL the way
the samples do it, with results checked against numpy on random data; gears, configurations and bad input."""
import os
import unittest

import numpy as np

import acl
from pyacl_testing import (ACL_ERROR_INVALID_PARAM, ACL_FLOAT, ACL_FORMAT_ND, ACL_MEM_MALLOC_HUGE_FIRST,
                           ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_SUCCESS, RuntimeTestCase, convert,
                           has_onnx, linear_relu_onnx)

K, N, BATCH = 24, 10, 4
ACL_MDL_LOAD_TYPE_SIZET = 1
ACL_MDL_PATH_PTR = 2
ACL_MDL_LOAD_FROM_FILE = 1
ACL_MDL_STREAM_SYNC_TIMEOUT = 0


def reference(x, weight, bias):
    return np.maximum(x @ weight + bias, 0.0)


@unittest.skipUnless(has_onnx(), "python3-onnx is not installed")
class ModelTest(RuntimeTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        rng = np.random.default_rng(2026)
        cls.weight = rng.standard_normal((K, N)).astype(np.float32)
        cls.bias = rng.standard_normal(N).astype(np.float32)
        cls.static_om = convert(linear_relu_onnx(cls.weight, cls.bias, BATCH), "linear_relu",
                                "--input_shape=x:%d,%d" % (BATCH, K))
        cls.gears_om = convert(linear_relu_onnx(cls.weight, cls.bias, -1), "linear_relu_gears",
                               "--input_shape=x:-1,%d" % K, "--dynamic_batch_size=1,2,4")
        cls.shapes_om = convert(linear_relu_onnx(cls.weight, cls.bias, -1), "linear_relu_shapes",
                                "--input_shape=x:1~8,%d" % K)
        cls.half_input_om = convert(linear_relu_onnx(cls.weight, cls.bias, BATCH), "linear_relu_fp16_in",
                                    "--input_shape=x:%d,%d" % (BATCH, K), "--input_fp16_nodes=x")

    def setUp(self):
        self.rng = np.random.default_rng(self._testMethodName.__hash__() & 0xFFFF)
        self.to_free = []

    def tearDown(self):
        for ptr in self.to_free:
            acl.rt.free(ptr)

    # --- helpers written as the samples write them ---------------------------------------------------------
    def device_buffer(self, size):
        ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, ACL_SUCCESS)
        self.to_free.append(ptr)
        return ptr

    def dataset(self, sizes):
        ds = acl.mdl.create_dataset()
        for size in sizes:
            buffer = acl.create_data_buffer(self.device_buffer(size), size)
            ds, ret = acl.mdl.add_dataset_buffer(ds, buffer)
            self.assertEqual(ret, ACL_SUCCESS)
        return ds

    def destroy_dataset(self, ds):
        for i in range(acl.mdl.get_dataset_num_buffers(ds)):
            self.assertEqual(acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(ds, i)), ACL_SUCCESS)
        self.assertEqual(acl.mdl.destroy_dataset(ds), ACL_SUCCESS)

    def write(self, ds, index, array):
        buffer = acl.mdl.get_dataset_buffer(ds, index)
        data = array.tobytes()
        ret = acl.rt.memcpy(acl.get_data_buffer_addr(buffer), acl.get_data_buffer_size_v2(buffer),
                            acl.util.bytes_to_ptr(data), len(data), ACL_MEMCPY_HOST_TO_DEVICE)
        self.assertEqual(ret, ACL_SUCCESS)

    def read(self, ds, index, shape):
        buffer = acl.mdl.get_dataset_buffer(ds, index)
        size = int(np.prod(shape)) * 4
        host, ret = acl.rt.malloc_host(size)
        self.assertEqual(ret, ACL_SUCCESS)
        try:
            self.assertEqual(acl.rt.memcpy(host, size, acl.get_data_buffer_addr(buffer), size,
                                           ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
            return np.frombuffer(acl.util.ptr_to_bytes(host, size), np.float32).reshape(shape)
        finally:
            acl.rt.free_host(host)

    def describe(self, model_id):
        desc = acl.mdl.create_desc()
        self.assertEqual(acl.mdl.get_desc(desc, model_id), ACL_SUCCESS)
        self.addCleanup(acl.mdl.destroy_desc, desc)
        return desc

    # --- tests ---------------------------------------------------------------------------------------------
    def test_description(self):
        model_id, ret = acl.mdl.load_from_file(self.static_om)
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(acl.mdl.unload, model_id)
        desc = self.describe(model_id)
        self.assertEqual((acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)), (1, 1))
        self.assertEqual(acl.mdl.get_input_size_by_index(desc, 0), BATCH * K * 4)
        self.assertEqual(acl.mdl.get_output_size_by_index(desc, 0), BATCH * N * 4)
        self.assertEqual(acl.mdl.get_input_dims(desc, 0), ({"name": "x", "dimCount": 2, "dims": [BATCH, K]}, 0))
        dims, ret = acl.mdl.get_output_dims(desc, 0)
        self.assertEqual((dims["dims"], ret), ([BATCH, N], ACL_SUCCESS))
        self.assertEqual(acl.mdl.get_input_name_by_index(desc, 0), "x")
        self.assertEqual(acl.mdl.get_output_name_by_index(desc, 0), "y")
        self.assertEqual(acl.mdl.get_input_index_by_name(desc, "x"), (0, ACL_SUCCESS))
        self.assertEqual(acl.mdl.get_input_data_type(desc, 0), ACL_FLOAT)
        self.assertEqual(acl.mdl.get_output_data_type(desc, 0), ACL_FLOAT)
        work, weight, ret = acl.mdl.query_size(self.static_om)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreaterEqual(weight, (K * N + N) * 4)
        # Out of range and unknown names: an error code and an empty answer.
        self.assertEqual(acl.mdl.get_input_dims(desc, 5), ({}, ACL_ERROR_INVALID_PARAM))
        self.assertNotEqual(acl.mdl.get_input_index_by_name(desc, "nope")[1], ACL_SUCCESS)
        self.assertEqual(acl.mdl.get_input_size_by_index(desc, 5), 0)

    def test_execute_matches_numpy(self):
        model_id, ret = acl.mdl.load_from_file(self.static_om)
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(acl.mdl.unload, model_id)
        desc = self.describe(model_id)
        inputs = self.dataset([acl.mdl.get_input_size_by_index(desc, 0)])
        outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
        for _ in range(3):  # the datasets are reused, as the samples reuse them
            x = self.rng.standard_normal((BATCH, K)).astype(np.float32)
            self.write(inputs, 0, x)
            self.assertEqual(acl.mdl.execute(model_id, inputs, outputs), ACL_SUCCESS)
            dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
            np.testing.assert_allclose(self.read(outputs, 0, dims["dims"]), reference(x, self.weight, self.bias),
                                       rtol=1e-4, atol=1e-5)
        self.destroy_dataset(inputs)
        self.destroy_dataset(outputs)

    def test_fp16_input_node(self):
        """atc --input_fp16_nodes (the classic Python samples' line): the input is fp16, the math fp32."""
        model_id, ret = acl.mdl.load_from_file(self.half_input_om)
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(acl.mdl.unload, model_id)
        desc = self.describe(model_id)
        self.assertEqual(acl.mdl.get_input_data_type(desc, 0), 1)  # ACL_FLOAT16
        self.assertEqual(acl.mdl.get_input_size_by_index(desc, 0), BATCH * K * 2)
        inputs = self.dataset([acl.mdl.get_input_size_by_index(desc, 0)])
        outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
        x = self.rng.standard_normal((BATCH, K)).astype(np.float16)
        self.write(inputs, 0, x)
        self.assertEqual(acl.mdl.execute(model_id, inputs, outputs), ACL_SUCCESS)
        np.testing.assert_allclose(self.read(outputs, 0, (BATCH, N)),
                                   reference(x.astype(np.float32), self.weight, self.bias), rtol=1e-4, atol=1e-5)
        self.destroy_dataset(inputs)
        self.destroy_dataset(outputs)

    def test_execute_async_from_memory(self):
        with open(self.static_om, "rb") as f:
            model_bytes = f.read()
        work, weight, ret = acl.mdl.query_size_from_mem(acl.util.bytes_to_ptr(model_bytes), len(model_bytes))
        self.assertEqual(ret, ACL_SUCCESS)
        model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(model_bytes), len(model_bytes))
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(acl.mdl.unload, model_id)
        desc = self.describe(model_id)
        inputs = self.dataset([acl.mdl.get_input_size_by_index(desc, 0)])
        outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
        x = self.rng.standard_normal((BATCH, K)).astype(np.float32)
        self.write(inputs, 0, x)
        self.assertEqual(acl.mdl.execute_async(model_id, inputs, outputs, self.stream), ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        np.testing.assert_allclose(self.read(outputs, 0, (BATCH, N)), reference(x, self.weight, self.bias),
                                   rtol=1e-4, atol=1e-5)
        # execute_v2 with an execution configuration (a stream timeout).
        config = acl.mdl.create_exec_config_handle()
        self.assertEqual(acl.mdl.set_exec_config_opt(config, ACL_MDL_STREAM_SYNC_TIMEOUT, 10000), ACL_SUCCESS)
        x = self.rng.standard_normal((BATCH, K)).astype(np.float32)
        self.write(inputs, 0, x)
        self.assertEqual(acl.mdl.execute_v2(model_id, inputs, outputs, self.stream, config), ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        np.testing.assert_allclose(self.read(outputs, 0, (BATCH, N)), reference(x, self.weight, self.bias),
                                   rtol=1e-4, atol=1e-5)
        self.assertEqual(acl.mdl.destroy_exec_config_handle(config), ACL_SUCCESS)
        self.destroy_dataset(inputs)
        self.destroy_dataset(outputs)

    def test_load_with_config(self):
        config = acl.mdl.create_config_handle()
        self.assertEqual(acl.mdl.set_config_opt(config, ACL_MDL_LOAD_TYPE_SIZET, ACL_MDL_LOAD_FROM_FILE), ACL_SUCCESS)
        self.assertEqual(acl.mdl.set_config_opt(config, ACL_MDL_PATH_PTR, self.static_om), ACL_SUCCESS)
        model_id, ret = acl.mdl.load_with_config(config)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(acl.mdl.unload(model_id), ACL_SUCCESS)
        self.assertEqual(acl.mdl.destroy_config_handle(config), ACL_SUCCESS)

    def test_dynamic_batch_the_acllite_way(self):
        model_id, ret = acl.mdl.load_from_file(self.gears_om)
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(acl.mdl.unload, model_id)
        desc = self.describe(model_id)
        batch, ret = acl.mdl.get_dynamic_batch(desc)
        self.assertEqual((batch, ret), ({"batchCount": 3, "batch": [1, 2, 4]}, ACL_SUCCESS))
        selector, ret = acl.mdl.get_input_index_by_name(desc, "ascend_mbatch_shape_data")
        self.assertEqual(ret, ACL_SUCCESS)
        sizes = [acl.mdl.get_input_size_by_index(desc, i) for i in range(acl.mdl.get_num_inputs(desc))]
        inputs = self.dataset(sizes)
        outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
        x = self.rng.standard_normal((2, K)).astype(np.float32)
        self.write(inputs, 0, np.concatenate([x, np.zeros((2, K), np.float32)]))  # the largest gear's buffer
        self.assertEqual(acl.mdl.set_dynamic_batch_size(model_id, inputs, selector, 2), ACL_SUCCESS)
        self.assertEqual(acl.mdl.execute(model_id, inputs, outputs), ACL_SUCCESS)
        dims, ret = acl.mdl.get_cur_output_dims(desc, 0)
        self.assertEqual((dims["dims"], ret), ([2, N], ACL_SUCCESS))
        np.testing.assert_allclose(self.read(outputs, 0, (2, N)), reference(x, self.weight, self.bias),
                                   rtol=1e-4, atol=1e-5)
        self.assertNotEqual(acl.mdl.set_dynamic_batch_size(model_id, inputs, selector, 3), ACL_SUCCESS)
        self.destroy_dataset(inputs)
        self.destroy_dataset(outputs)

    def test_dynamic_shapes_through_tensor_descs(self):
        model_id, ret = acl.mdl.load_from_file(self.shapes_om)
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(acl.mdl.unload, model_id)
        desc = self.describe(model_id)
        ranges, ret = acl.mdl.get_input_dims_range(desc, 0)
        self.assertEqual((ranges["range"], ret), ([[1, 8], [K, K]], ACL_SUCCESS))
        self.assertEqual(acl.mdl.get_cur_output_dims(desc, 0)[1], 200001)
        inputs = self.dataset([acl.mdl.get_input_size_by_index(desc, 0)])
        outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
        for batch in (3, 8, 1, 3):
            x = self.rng.standard_normal((batch, K)).astype(np.float32)
            self.write(inputs, 0, x)
            tensor = acl.create_tensor_desc(ACL_FLOAT, [batch, K], ACL_FORMAT_ND)
            self.assertEqual(acl.mdl.set_dataset_tensor_desc(inputs, tensor, 0)[1], ACL_SUCCESS)
            acl.destroy_tensor_desc(tensor)
            self.assertEqual(acl.mdl.execute(model_id, inputs, outputs), ACL_SUCCESS)
            out = acl.mdl.get_dataset_tensor_desc(outputs, 0)
            dims = [acl.get_tensor_desc_dim_v2(out, i)[0] for i in range(acl.get_tensor_desc_num_dims(out))]
            self.assertEqual(dims, [batch, N])
            np.testing.assert_allclose(self.read(outputs, 0, (batch, N)), reference(x, self.weight, self.bias),
                                       rtol=1e-4, atol=1e-5)
        tensor = acl.create_tensor_desc(ACL_FLOAT, [9, K], ACL_FORMAT_ND)
        acl.mdl.set_dataset_tensor_desc(inputs, tensor, 0)
        acl.destroy_tensor_desc(tensor)
        self.assertEqual(acl.mdl.execute(model_id, inputs, outputs), 145000)  # outside the range 1~8
        self.destroy_dataset(inputs)
        self.destroy_dataset(outputs)

    def test_dump_callback_receives_the_tensors(self):
        """acl.mdl.init_dump + set_dump before the load (CANN's order) with acl.mdl.dump_reg_callback: the dump's
        bytes reach the Python callback in chunks with their file names, the output tensor's file ends with the
        model's result, and no file is written."""
        import json
        import tempfile
        work = tempfile.mkdtemp(prefix="pyacl_dump_")
        config = os.path.join(work, "dump.json")
        with open(config, "w") as f:
            json.dump({"dump": {"dump_path": os.path.join(work, "out"), "dump_list": [{}], "dump_mode": "output"}}, f)
        files = {}

        def on_chunk(chunk):
            data = acl.util.ptr_to_bytes(chunk["data_buf"], chunk["buf_len"])
            files.setdefault(chunk["file_name"], bytearray()).extend(data)

        self.assertEqual(acl.mdl.init_dump(), ACL_SUCCESS)
        self.assertEqual(acl.mdl.set_dump(config), ACL_SUCCESS)
        self.assertEqual(acl.mdl.dump_reg_callback(on_chunk, 0), ACL_SUCCESS)
        try:
            model_id, ret = acl.mdl.load_from_file(self.static_om)
            self.assertEqual(ret, ACL_SUCCESS)
            desc = self.describe(model_id)
            inputs = self.dataset([acl.mdl.get_input_size_by_index(desc, 0)])
            outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
            x = self.rng.standard_normal((BATCH, K)).astype(np.float32)
            self.write(inputs, 0, x)
            self.assertEqual(acl.mdl.execute(model_id, inputs, outputs), ACL_SUCCESS)
            self.assertEqual(acl.mdl.unload(model_id), ACL_SUCCESS)
        finally:
            acl.mdl.dump_unreg_callback()
            self.assertEqual(acl.mdl.finalize_dump(), ACL_SUCCESS)
        self.assertTrue(files, "no dump chunk reached the callback")
        self.assertTrue(all(name.endswith(".npy") for name in files), list(files))
        expected = reference(x, self.weight, self.bias).astype(np.float32)
        nbytes = expected.nbytes

        def holds_result(data):
            if len(data) < nbytes:
                return False
            tail = np.frombuffer(bytes(data[-nbytes:]), np.float32).reshape(expected.shape)
            return np.allclose(tail, expected, rtol=1e-4, atol=1e-5)

        self.assertTrue(any(holds_result(data) for data in files.values()),
                        "no dumped output holds the model's result: %s" % sorted(files))
        written = [f for _, _, names in os.walk(os.path.join(work, "out")) for f in names]
        self.assertEqual(written, [], "a registered callback writes no file")
        self.destroy_dataset(inputs)
        self.destroy_dataset(outputs)

    def test_bad_input_is_an_error_code(self):
        self.assertNotEqual(acl.mdl.load_from_file(os.path.join(os.path.dirname(self.static_om), "none.om"))[1],
                            ACL_SUCCESS)
        garbage = b"\x00not a model" * 64
        self.assertNotEqual(acl.mdl.load_from_mem(acl.util.bytes_to_ptr(garbage), len(garbage))[1], ACL_SUCCESS)
        empty = acl.mdl.create_dataset()
        self.assertNotEqual(acl.mdl.execute(987654, empty, empty), ACL_SUCCESS)
        self.assertNotEqual(acl.mdl.unload(987654), ACL_SUCCESS)
        self.assertNotEqual(acl.mdl.get_desc(0, 1), ACL_SUCCESS)
        self.assertEqual(acl.mdl.get_num_inputs(0), 0)
        self.assertNotEqual(acl.mdl.destroy_dataset(0), ACL_SUCCESS)
        self.assertEqual(acl.mdl.destroy_dataset(empty), ACL_SUCCESS)
        model_id, ret = acl.mdl.load_from_file(self.static_om)
        self.assertEqual(ret, ACL_SUCCESS)
        desc = self.describe(model_id)
        small = self.dataset([16])  # far smaller than the input
        outputs = self.dataset([acl.mdl.get_output_size_by_index(desc, 0)])
        self.assertNotEqual(acl.mdl.execute(model_id, small, outputs), ACL_SUCCESS)
        self.assertIn("input", acl.get_recent_err_msg())
        self.assertEqual(acl.mdl.unload(model_id), ACL_SUCCESS)
        self.assertNotEqual(acl.mdl.execute(model_id, small, outputs), ACL_SUCCESS)  # use after unload
        with self.assertRaises(ValueError):
            acl.mdl.set_input_dynamic_dims(model_id, small, 0, {"dimCount": 3, "dims": [1, 2]})
        self.destroy_dataset(small)
        self.destroy_dataset(outputs)


if __name__ == "__main__":
    unittest.main()
