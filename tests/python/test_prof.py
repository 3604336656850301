"""acl.prof: a profiling session around an operator writes its data; stamps, getters and error codes."""
import os
import shutil
import tempfile
import unittest

import numpy as np

import acl
from pyacl_testing import ACL_ERROR_REPEAT_INITIALIZE, RuntimeTestCase

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_ERROR_PROF_NOT_RUN = 100043
ACL_FLOAT, ACL_FORMAT_ND = 0, 2
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
ACL_AICORE_NONE = 0xFF
ACL_PROF_ACL_API, ACL_PROF_TASK_TIME, ACL_PROF_MSPROFTX = 0x1, 0x2, 0x80
ACL_PROF_PATH = 16
ACL_STEP_START, ACL_STEP_END = 0, 1


def files_under(path):
    return [os.path.join(root, name) for root, _, names in os.walk(path) for name in names]


def any_file_contains(path, needle):
    for name in files_under(path):
        with open(name, "rb") as f:
            if needle in f.read():
                return True
    return False


class ProfTest(RuntimeTestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="pyacl_prof_")
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def run_add(self, n=64):
        """Adds two random vectors on the device and checks the result: the operator a session records."""
        rng = np.random.default_rng(7)
        a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
        y = np.empty(n, np.float32)
        descs, bufs, ptrs = [], [], []
        for host in (a, b, y):
            desc = acl.create_tensor_desc(ACL_FLOAT, [n], ACL_FORMAT_ND)
            ptr, ret = acl.rt.malloc(host.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
            self.assertEqual(ret, ACL_SUCCESS)
            descs.append(desc), ptrs.append(ptr), bufs.append(acl.create_data_buffer(ptr, host.nbytes))
        for ptr, host in zip(ptrs, (a, b)):
            ret = acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
            self.assertEqual(ret, ACL_SUCCESS)
        ret = acl.op.execute_v2("Add", descs[:2], bufs[:2], descs[2:], bufs[2:], 0, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        ret = acl.rt.memcpy(y.ctypes.data, y.nbytes, ptrs[2], y.nbytes, ACL_MEMCPY_DEVICE_TO_HOST)
        self.assertEqual(ret, ACL_SUCCESS)
        np.testing.assert_allclose(y, a + b, rtol=1e-6)
        for desc, buf, ptr in zip(descs, bufs, ptrs):
            acl.destroy_data_buffer(buf)
            acl.rt.free(ptr)
            acl.destroy_tensor_desc(desc)

    def test_session_around_an_operator_writes_files(self):
        self.assertEqual(acl.prof.init(self.dir), ACL_SUCCESS)
        try:
            self.assertEqual(acl.prof.init(self.dir), ACL_ERROR_REPEAT_INITIALIZE)
            config = acl.prof.create_config([0], ACL_AICORE_NONE, 0,
                                            ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX)
            self.assertIsInstance(config, int)
            self.assertNotEqual(config, 0)
            self.assertEqual(acl.prof.start(config), ACL_SUCCESS)

            stamp = acl.prof.create_stamp()
            self.assertNotEqual(stamp, 0)
            message = "pyacl-prof-stamp"
            self.assertEqual(acl.prof.set_stamp_trace_message(stamp, message, len(message)), ACL_SUCCESS)
            self.assertEqual(acl.prof.mark(stamp), ACL_SUCCESS)
            self.assertEqual(acl.prof.push(stamp), ACL_SUCCESS)
            range_id, ret = acl.prof.range_start(stamp)
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertIsInstance(range_id, int)
            step = acl.prof.create_step_info()
            self.assertNotEqual(step, 0)
            self.assertEqual(acl.prof.get_step_timestamp(step, ACL_STEP_START, self.stream), ACL_SUCCESS)
            self.run_add()
            self.assertEqual(acl.prof.get_step_timestamp(step, ACL_STEP_END, self.stream), ACL_SUCCESS)
            self.assertIsNone(acl.prof.destroy_step_info(step))
            self.assertEqual(acl.prof.range_stop(range_id), ACL_SUCCESS)
            self.assertEqual(acl.prof.pop(), ACL_SUCCESS)
            self.assertEqual(acl.prof.mark_ex("pyacl-prof-mark-ex", self.stream), ACL_SUCCESS)
            self.assertIsNone(acl.prof.destroy_stamp(stamp))

            self.assertEqual(acl.prof.stop(config), ACL_SUCCESS)
            self.assertEqual(acl.prof.stop(config), ACL_ERROR_PROF_NOT_RUN)
            self.assertEqual(acl.prof.destroy_config(config), ACL_SUCCESS)
        finally:
            self.assertEqual(acl.prof.finalize(), ACL_SUCCESS)
        self.assertTrue(files_under(self.dir), "the session wrote nothing under " + self.dir)
        self.assertTrue(any_file_contains(self.dir, b"Add"), "the Add operator is not in the profile")
        self.assertTrue(any_file_contains(self.dir, message.encode()), "the stamp's message is not in the profile")

    def test_set_config_path(self):
        other = os.path.join(self.dir, "elsewhere")
        os.mkdir(other)
        self.assertNotEqual(acl.prof.set_config(ACL_PROF_PATH, other), ACL_SUCCESS)  # needs init first
        self.assertEqual(acl.prof.init(self.dir), ACL_SUCCESS)
        try:
            self.assertEqual(acl.prof.set_config(ACL_PROF_PATH, other), ACL_SUCCESS)
            config = acl.prof.create_config([0], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME)
            self.assertEqual(acl.prof.start(config), ACL_SUCCESS)
            self.run_add()
            self.assertEqual(acl.prof.stop(config), ACL_SUCCESS)
            self.assertEqual(acl.prof.destroy_config(config), ACL_SUCCESS)
        finally:
            self.assertEqual(acl.prof.finalize(), ACL_SUCCESS)
        self.assertTrue(files_under(other), "nothing written under the path set with set_config")

    def test_errors_without_session(self):
        self.assertEqual(acl.prof.finalize(), ACL_ERROR_PROF_NOT_RUN)
        self.assertNotEqual(acl.prof.start(0), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.start(12345), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.stop(12345), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.destroy_config(0), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.destroy_config(12345), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.push(12345), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.mark(0), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.range_start(0)[1], ACL_SUCCESS)
        self.assertNotEqual(acl.prof.set_stamp_trace_message(0, "x", 1), ACL_SUCCESS)
        self.assertIsNone(acl.prof.destroy_stamp(12345))
        self.assertIsNone(acl.prof.destroy_step_info(0))
        self.assertIsNone(acl.prof.destroy_step_info(12345))
        self.assertNotEqual(acl.prof.init(""), ACL_SUCCESS)
        # An unknown device id or data-type bit gives no config.
        self.assertEqual(acl.prof.create_config([999], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME), 0)
        self.assertEqual(acl.prof.create_config([0], ACL_AICORE_NONE, 0, 1 << 60), 0)

    def test_argument_types(self):
        with self.assertRaises(TypeError):
            acl.prof.create_config(0, ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME)
        with self.assertRaises(TypeError):
            acl.prof.create_config(["0"], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME)
        with self.assertRaises(TypeError):
            acl.prof.create_config([-1], ACL_AICORE_NONE, 0, ACL_PROF_TASK_TIME)
        with self.assertRaises(TypeError):
            acl.prof.init(None)
        with self.assertRaises(TypeError):
            acl.prof.start("config")
        with self.assertRaises(TypeError):
            acl.prof.create_subscribe_config(1000, ACL_AICORE_NONE, 0)  # int8 switch

    def test_subscription_config_and_getters(self):
        read_fd, write_fd = os.pipe()
        self.addCleanup(os.close, read_fd)
        self.addCleanup(os.close, write_fd)
        config = acl.prof.create_subscribe_config(1, ACL_AICORE_NONE, write_fd)
        self.assertNotEqual(config, 0)
        self.assertEqual(acl.prof.destroy_subscribe_config(config), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.destroy_subscribe_config(config), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.destroy_subscribe_config(0), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.model_subscribe(1, 0), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.model_unsubscribe(424242), ACL_SUCCESS)
        self.assertNotEqual(acl.prof.model_un_subscribe(424242), ACL_SUCCESS)

        size, ret = acl.prof.get_op_desc_size()
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreater(size, 0)
        # A record buffer too short for one record: codes, not crashes.
        record = bytes(size - 1)
        addr = np.frombuffer(record, np.uint8).ctypes.data
        number, ret = acl.prof.get_op_num(addr, len(record))
        self.assertNotEqual(ret, ACL_SUCCESS)
        self.assertEqual(acl.prof.get_op_num(0, 0)[1], ACL_ERROR_INVALID_PARAM)
        self.assertEqual(acl.prof.get_op_type(0, 0, 0, 5000), ("", ACL_ERROR_INVALID_PARAM))  # length over 4096
        self.assertEqual(acl.prof.get_op_name(0, 0, 0, 5000), ("", ACL_ERROR_INVALID_PARAM))
        self.assertNotEqual(acl.prof.get_op_type(0, 0, 0, 16)[1], ACL_SUCCESS)
        self.assertEqual(acl.prof.get_op_type_v2(0, 0, 0)[0], None)
        self.assertNotEqual(acl.prof.get_op_name_v2(0, 0, 0)[1], ACL_SUCCESS)
        self.assertNotEqual(acl.prof.get_op_type_len(0, 0, 0)[1], ACL_SUCCESS)
        self.assertNotEqual(acl.prof.get_op_name_len(0, 0, 0)[1], ACL_SUCCESS)
        for getter in (acl.prof.get_op_start, acl.prof.get_op_end, acl.prof.get_op_duration, acl.prof.get_model_id):
            self.assertEqual(getter(0, 0, 0), 0)


if __name__ == "__main__":
    unittest.main()
