"""acl.rt: devices, contexts, streams, events and notifies, memory round trips on random data, report callbacks
on a Python thread, the exception callback, the GIL released while the runtime waits, and bad handles and
arguments answered with error codes and TypeError/ValueError, never a crash."""
import ctypes
import os
import sys
import threading
import time
import unittest

import numpy as np

import acl
from pyacl_testing import ACL_ERROR_REPEAT_INITIALIZE, ACL_SUCCESS

rt = acl.rt

ACL_MEMCPY_HOST_TO_HOST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_CALLBACK_NO_BLOCK = 0
ACL_CALLBACK_BLOCK = 1
ACL_EVENT_RECORDED_STATUS_COMPLETE = 1
ACL_STREAM_ATTR_FAILURE_MODE = 1
ACL_MEM_LOCATION_TYPE_HOST = 0
ACL_MEM_LOCATION_TYPE_DEVICE = 1
ACL_OPT_DETERMINISTIC = 0
ACL_RT_THREAD_LEVEL = 0
ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034
ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035
ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036
ACL_ERROR_RT_TASK_TIMEOUT = 107020
BOGUS = 12345  # an address that is no handle


def host_view(address, nbytes, dtype):
    """A numpy array over host memory the runtime allocated (malloc_host), without acl.util."""
    return np.frombuffer((ctypes.c_uint8 * nbytes).from_address(address), dtype=dtype)


def setUpModule():  # noqa: N802
    # Once for the module: the test classes share the runtime (init after finalize is not CANN's contract).
    assert acl.init() in (ACL_SUCCESS, ACL_ERROR_REPEAT_INITIALIZE)
    assert rt.set_device(0) == ACL_SUCCESS


def tearDownModule():  # noqa: N802
    rt.reset_device(0)
    acl.finalize()


class RuntimeCase(unittest.TestCase):
    """A context and a stream of its own per test class; the context is made current for each test."""

    @classmethod
    def setUpClass(cls):
        cls.context, ret = rt.create_context(0)
        assert ret == ACL_SUCCESS and cls.context != 0, ret
        cls.stream, ret = rt.create_stream()
        assert ret == ACL_SUCCESS and cls.stream != 0, ret

    @classmethod
    def tearDownClass(cls):
        rt.destroy_stream(cls.stream)
        rt.destroy_context(cls.context)

    def setUp(self):
        self.rng = np.random.default_rng(20240611)
        self.assertEqual(rt.set_context(self.context), ACL_SUCCESS)

    def device_buffer(self, nbytes):
        ptr, ret = rt.malloc(nbytes, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(ptr, 0)
        self.addCleanup(rt.free, ptr)
        return ptr

    def host_buffer(self, nbytes):
        ptr, ret = rt.malloc_host(nbytes)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(ptr, 0)
        self.addCleanup(rt.free_host, ptr)
        return ptr

    def new_stream(self):
        stream, ret = rt.create_stream()
        self.assertEqual(ret, ACL_SUCCESS)
        self.addCleanup(rt.destroy_stream, stream)
        return stream


class DeviceContextTest(RuntimeCase):
    def test_devices(self):
        count, ret = rt.get_device_count()
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(count, int(os.environ.get("NPURT_SIM_DEVICE_COUNT", count)))
        self.assertEqual(rt.get_device(), (0, ACL_SUCCESS))
        mode, ret = rt.get_run_mode()
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertIn(mode, (0, 1))
        self.assertNotEqual(rt.set_device(count + 7), ACL_SUCCESS)
        self.assertEqual(rt.query_device_status(0), (0, ACL_SUCCESS))
        uuid, ret = rt.device_get_uuid(0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(len(uuid["bytes"]), 16)
        rate, ret = rt.get_device_utilization_rate(0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(set(rate), {"cube_utilization", "vector_utilization", "aicpu_utilization",
                                     "memory_utilization", "utilization_extend"})
        least, greatest, ret = rt.device_get_stream_priority_range()
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreaterEqual(least, greatest)
        if count >= 2:
            can, ret = rt.device_can_access_peer(0, 1)
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertIn(can, (0, 1))
        self.assertEqual(rt.get_logic_dev_id_by_user_dev_id(0), (0, ACL_SUCCESS))

    def test_contexts(self):
        self.assertEqual(rt.get_context(), (self.context, ACL_SUCCESS))
        other, ret = rt.create_context(0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotIn(other, (0, self.context))
        self.assertEqual(rt.get_context(), (other, ACL_SUCCESS))  # a new context becomes the current one
        stream, ret = rt.ctx_get_current_default_stream()
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(stream, 0)
        self.assertEqual(rt.set_context(self.context), ACL_SUCCESS)
        self.assertEqual(rt.destroy_context(other), ACL_SUCCESS)
        self.assertEqual(rt.get_context(), (self.context, ACL_SUCCESS))
        active, flags, ret = rt.get_primary_ctx_state(0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(active, 1)

    def test_sys_params(self):
        self.assertEqual(rt.set_sys_param_opt(ACL_OPT_DETERMINISTIC, 1), ACL_SUCCESS)
        self.assertEqual(rt.get_sys_param_opt(ACL_OPT_DETERMINISTIC), (1, ACL_SUCCESS))
        self.assertEqual(rt.set_sys_param_opt(ACL_OPT_DETERMINISTIC, 0), ACL_SUCCESS)
        self.assertEqual(rt.get_sys_param_opt(ACL_OPT_DETERMINISTIC), (0, ACL_SUCCESS))

    def test_groups(self):
        self.assertEqual(rt.get_group_count(), (1, ACL_SUCCESS))
        self.assertEqual(rt.get_group_count(0), (1, ACL_SUCCESS))  # CANN's wrapper takes an unused argument
        info = rt.create_group_info()
        self.assertNotEqual(info, 0)
        self.assertEqual(rt.get_all_group_info(info), ACL_SUCCESS)
        values, ret = rt.get_group_info_detail(info, 0, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(len(values), 1)
        values, ret = rt.get_group_info_detail(info, 5, 0)
        self.assertEqual((values, ret != ACL_SUCCESS), ([], True))
        self.assertEqual(rt.destroy_group_info(info), ACL_SUCCESS)

    def test_bad_handles_return_codes(self):
        for bad in (0, BOGUS):
            self.assertNotEqual(rt.destroy_context(bad), ACL_SUCCESS)
            self.assertNotEqual(rt.destroy_stream(bad), ACL_SUCCESS)
            self.assertNotEqual(rt.destroy_event(bad), ACL_SUCCESS)
            self.assertNotEqual(rt.free(bad), ACL_SUCCESS)
            self.assertNotEqual(rt.record_event(bad, self.stream), ACL_SUCCESS)
            self.assertNotEqual(rt.destroy_notify(bad), ACL_SUCCESS)
            self.assertNotEqual(rt.allocator_destroy_desc(bad), ACL_SUCCESS)
            self.assertNotEqual(rt.binary_unload(bad), ACL_SUCCESS)
            query, ret = rt.query_event_status(bad)
            self.assertNotEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(rt.set_context(BOGUS), ACL_SUCCESS)
        self.assertNotEqual(rt.synchronize_stream(BOGUS), ACL_SUCCESS)
        self.assertEqual(rt.get_context(), (self.context, ACL_SUCCESS))
        rt.get_last_error(ACL_RT_THREAD_LEVEL)

    def test_wrong_types_raise_type_error(self):
        with self.assertRaises(TypeError):
            rt.set_device("0")
        with self.assertRaises(TypeError):
            rt.create_context(None)
        with self.assertRaises(TypeError):
            rt.malloc(1.5, 0)
        with self.assertRaises(TypeError):
            rt.malloc(-1, 0)
        with self.assertRaises(TypeError):
            rt.memcpy(1.0, 4, 8, 4, ACL_MEMCPY_HOST_TO_HOST)
        with self.assertRaises(TypeError):
            rt.synchronize_stream()


class StreamEventTest(RuntimeCase):
    def test_stream_lifecycle_and_attributes(self):
        stream, ret = rt.create_stream_with_config(0, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        sid, ret = rt.stream_get_id(stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreaterEqual(sid, 0)
        self.assertEqual(rt.stream_query(stream), (0, ACL_SUCCESS))  # ACL_STREAM_STATUS_COMPLETE
        self.assertEqual(rt.set_stream_attribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, {"failureMode": 1}),
                         ACL_SUCCESS)
        self.assertEqual(rt.get_stream_attribute(stream, ACL_STREAM_ATTR_FAILURE_MODE),
                         ({"failureMode": 1}, ACL_SUCCESS))
        with self.assertRaises(ValueError):
            rt.set_stream_attribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, {"overflowSwitch": 1})
        with self.assertRaises(TypeError):
            rt.set_stream_attribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, [1])
        with self.assertRaises(TypeError):
            rt.set_stream_attribute(stream, ACL_STREAM_ATTR_FAILURE_MODE, {"failureMode": "x"})
        self.assertEqual(rt.synchronize_stream(stream), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream_with_timeout(stream, 1000), ACL_SUCCESS)
        self.assertEqual(rt.destroy_stream(stream), ACL_SUCCESS)
        self.assertNotEqual(rt.destroy_stream(stream), ACL_SUCCESS)  # already gone

    def test_events_time_a_wait(self):
        # The stream waits on a notify that a Python thread records 100 ms later: the events around the wait
        # are at least that far apart.
        start, ret = rt.create_event()
        self.assertEqual(ret, ACL_SUCCESS)
        end, ret = rt.create_event_with_flag(0)
        self.assertEqual(ret, ACL_SUCCESS)
        notify, ret = rt.create_notify(0)
        self.assertEqual(ret, ACL_SUCCESS)
        signaller = self.new_stream()
        self.assertEqual(rt.record_event(start, self.stream), ACL_SUCCESS)
        self.assertEqual(rt.wait_and_reset_notify(notify, self.stream, 5000), ACL_SUCCESS)
        self.assertEqual(rt.record_event(end, self.stream), ACL_SUCCESS)
        thread = threading.Thread(target=self._record_later, args=(notify, signaller, 0.1))
        thread.start()
        self.assertEqual(rt.synchronize_event(end), ACL_SUCCESS)
        thread.join()
        self.assertEqual(rt.query_event_status(end), (ACL_EVENT_RECORDED_STATUS_COMPLETE, ACL_SUCCESS))
        ms, ret = rt.event_elapsed_time(start, end)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertIsInstance(ms, float)
        self.assertGreaterEqual(ms, 50.0)
        self.assertLess(ms, 5000.0)
        t0, ret0 = rt.event_get_timestamp(start)
        t1, ret1 = rt.event_get_timestamp(end)
        self.assertEqual((ret0, ret1), (ACL_SUCCESS, ACL_SUCCESS))
        self.assertGreater(t1, t0)
        # Another stream waits for `end` (already complete) and synchronises at once.
        self.assertEqual(rt.stream_wait_event(signaller, end), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(signaller), ACL_SUCCESS)
        for event in (start, end):
            self.assertEqual(rt.destroy_event(event), ACL_SUCCESS)
        self.assertEqual(rt.destroy_notify(notify), ACL_SUCCESS)

    def _record_later(self, notify, stream, delay):
        rt.set_context(self.context)
        time.sleep(delay)
        rt.record_notify(notify, stream)

    def test_gil_released_while_synchronize_stream_waits(self):
        # The only way the stream can finish is a Python thread recording the notify it waits on: that thread
        # runs only if synchronize_stream released the GIL (otherwise the wait times out after 5 s).
        notify, ret = rt.create_notify(0)
        self.assertEqual(ret, ACL_SUCCESS)
        signaller = self.new_stream()
        ticks = []

        def tick_then_record():
            rt.set_context(self.context)
            for _ in range(20):
                ticks.append(time.monotonic())
                time.sleep(0.005)
            rt.record_notify(notify, signaller)

        self.assertEqual(rt.wait_and_reset_notify(notify, self.stream, 5000), ACL_SUCCESS)
        thread = threading.Thread(target=tick_then_record)
        begin = time.monotonic()
        thread.start()
        self.assertEqual(rt.synchronize_stream(self.stream), ACL_SUCCESS)
        elapsed = time.monotonic() - begin
        thread.join()
        self.assertEqual(len(ticks), 20)
        self.assertLess(elapsed, 4.0)
        self.assertEqual(rt.destroy_notify(notify), ACL_SUCCESS)

    def test_notify_batch_reset_and_ids(self):
        notifies = []
        for _ in range(3):
            notify, ret = rt.create_notify(0)
            self.assertEqual(ret, ACL_SUCCESS)
            notifies.append(notify)
        nid, ret = rt.get_notify_id(notifies[0])
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreaterEqual(nid, 0)
        self.assertEqual(rt.notify_batch_reset(notifies), ACL_SUCCESS)
        with self.assertRaises(TypeError):
            rt.notify_batch_reset([notifies[0], "x"])
        with self.assertRaises(TypeError):
            rt.notify_batch_reset(notifies[0])
        for notify in notifies:
            self.assertEqual(rt.destroy_notify(notify), ACL_SUCCESS)


class MemoryTest(RuntimeCase):
    def test_memcpy_round_trip(self):
        data = self.rng.standard_normal(1 << 16).astype(np.float32)
        dev = self.device_buffer(data.nbytes)
        dev2 = self.device_buffer(data.nbytes)
        self.assertEqual(rt.memcpy(dev, data.nbytes, data.ctypes.data, data.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
                         ACL_SUCCESS)
        self.assertEqual(rt.memcpy(dev2, data.nbytes, dev, data.nbytes, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS)
        host = self.host_buffer(data.nbytes)
        self.assertEqual(rt.memcpy(host, data.nbytes, dev2, data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        np.testing.assert_array_equal(host_view(host, data.nbytes, np.float32), data)
        out = np.zeros_like(data)
        self.assertEqual(rt.memcpy(out.ctypes.data, out.nbytes, host, data.nbytes, ACL_MEMCPY_HOST_TO_HOST),
                         ACL_SUCCESS)
        np.testing.assert_array_equal(out, data)
        # Pointer arithmetic on the ints: the second half alone.
        half = data.nbytes // 2
        tail = np.zeros(data.size // 2, np.float32)
        self.assertEqual(rt.memcpy(tail.ctypes.data, half, dev + half, half, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        np.testing.assert_array_equal(tail, data[data.size // 2:])

    def test_memcpy_errors_are_codes(self):
        dev = self.device_buffer(64)
        data = np.zeros(32, np.uint8)
        self.assertNotEqual(rt.memcpy(dev, 16, data.ctypes.data, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        self.assertNotEqual(rt.memcpy(0, 32, data.ctypes.data, 32, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS)
        self.assertNotEqual(rt.memcpy(dev, 64, data.ctypes.data, 32, 99), ACL_SUCCESS)
        ptr, ret = rt.malloc(1 << 60, 0)
        self.assertNotEqual(ret, ACL_SUCCESS)
        self.assertEqual(ptr, 0)
        rt.get_last_error(ACL_RT_THREAD_LEVEL)

    def test_async_copies_and_fills(self):
        data = self.rng.integers(0, 256, 1 << 18, dtype=np.uint8)
        dev = self.device_buffer(data.nbytes)
        host = self.host_buffer(data.nbytes)
        staging = host_view(host, data.nbytes, np.uint8)
        staging[:] = data
        out = np.zeros_like(data)
        self.assertEqual(rt.memset_async(dev, data.nbytes, 0x5A, data.nbytes, self.stream), ACL_SUCCESS)
        self.assertEqual(rt.memcpy_async(out.ctypes.data, out.nbytes, dev, data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                         self.stream), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(self.stream), ACL_SUCCESS)
        self.assertTrue((out == 0x5A).all())
        self.assertEqual(rt.memcpy_async(dev, data.nbytes, host, data.nbytes, ACL_MEMCPY_HOST_TO_DEVICE,
                                         self.stream), ACL_SUCCESS)
        self.assertEqual(rt.memcpy_async(out.ctypes.data, out.nbytes, dev, data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                         self.stream), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(self.stream), ACL_SUCCESS)
        np.testing.assert_array_equal(out, data)
        # Synchronous fill of part of the buffer.
        self.assertEqual(rt.memset(dev, data.nbytes, 7, 100), ACL_SUCCESS)
        self.assertEqual(rt.memcpy(out.ctypes.data, out.nbytes, dev, data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST),
                         ACL_SUCCESS)
        self.assertTrue((out[:100] == 7).all())
        np.testing.assert_array_equal(out[100:], data[100:])

    def test_memcpy2d(self):
        rows, cols, pitch = 17, 40, 64
        src = self.rng.integers(0, 256, (rows, cols), dtype=np.uint8)
        dev = self.device_buffer(rows * pitch)
        self.assertEqual(rt.memcpy2d(dev, pitch, src.ctypes.data, cols, cols, rows, ACL_MEMCPY_HOST_TO_DEVICE),
                         ACL_SUCCESS)
        out = np.zeros((rows, cols), np.uint8)
        self.assertEqual(rt.memcpy2d_async(out.ctypes.data, cols, dev, pitch, cols, rows, ACL_MEMCPY_DEVICE_TO_HOST,
                                           self.stream), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(self.stream), ACL_SUCCESS)
        np.testing.assert_array_equal(out, src)

    def test_mem_info_and_pointer_attributes(self):
        free, total, ret = rt.get_mem_info(1)  # ACL_HBM_MEM
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreater(total, 0)
        self.assertLessEqual(free, total)
        dev = self.device_buffer(4096)
        attributes, ret = rt.pointer_get_attributes(dev)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(attributes["location"], {"id": 0, "type": ACL_MEM_LOCATION_TYPE_DEVICE})
        self.assertEqual(set(attributes), {"location", "page_size", "rsv"})
        host = self.host_buffer(4096)
        attributes, ret = rt.pointer_get_attributes(host)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(attributes["location"]["type"], ACL_MEM_LOCATION_TYPE_HOST)

    def test_malloc_variants(self):
        for malloc in (rt.malloc_align32, rt.malloc_cached):
            ptr, ret = malloc(1000, 0)
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertEqual(rt.free(ptr), ACL_SUCCESS)
        ptr, ret = rt.malloc_with_cfg(1000, 0, {})
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(rt.free(ptr), ACL_SUCCESS)
        cfg = {"numAttrs": 1, "attrs": [{"attr": 2, "value": {"deviceId": 0}}]}  # ACL_RT_MEM_ATTR_DEVICE_ID
        ptr, ret = rt.malloc_with_cfg(1000, 0, cfg)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(rt.free(ptr), ACL_SUCCESS)
        with self.assertRaises(ValueError):
            rt.malloc_with_cfg(1000, 0, {"numAttrs": 2, "attrs": [{"attr": 2, "value": {"deviceId": 0}}]})
        with self.assertRaises(ValueError):
            rt.malloc_with_cfg(1000, 0, {"attrs": [{"attr": 2, "value": {}}]})
        with self.assertRaises(ValueError):
            rt.malloc_with_cfg(1000, 0, {"numAttrs": 0})
        with self.assertRaises(TypeError):
            rt.malloc_with_cfg(1000, 0, [1])
        ptr, ret = rt.malloc_host_with_cfg(1000, {})
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(rt.free_host(ptr), ACL_SUCCESS)

    def test_host_register(self):
        # Pageable memory cannot be the target of an asynchronous fill until it is registered.
        data = np.zeros(1 << 14, np.uint8)
        self.assertNotEqual(rt.memset_async(data.ctypes.data, data.nbytes, 3, data.nbytes, self.stream), ACL_SUCCESS)
        dev_ptr, ret = rt.host_register(data.ctypes.data, data.nbytes, 0)  # ACL_HOST_REGISTER_MAPPED
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(dev_ptr, 0)
        self.assertEqual(rt.memset_async(dev_ptr, data.nbytes, 3, data.nbytes, self.stream), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(self.stream), ACL_SUCCESS)
        self.assertTrue((data == 3).all())
        self.assertEqual(rt.host_unregister(data.ctypes.data), ACL_SUCCESS)
        self.assertNotEqual(rt.host_unregister(data.ctypes.data), ACL_SUCCESS)
        rt.get_last_error(ACL_RT_THREAD_LEVEL)

    def test_virtual_memory(self):
        prop = {"handleType": 0, "allocationType": 0, "memAttr": 1, "location": {"id": 0, "type": 1}, "reserve": 0}
        granularity, ret = rt.mem_get_allocation_granularity(prop, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreater(granularity, 0)
        va, ret = rt.reserve_mem_address(granularity, 0, 0, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        handle, ret = rt.malloc_physical(granularity, prop, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(rt.map_mem(va, granularity, 0, handle, 0), ACL_SUCCESS)
        data = self.rng.integers(0, 256, 4096, dtype=np.uint8)
        out = np.zeros_like(data)
        self.assertEqual(rt.memcpy(va, granularity, data.ctypes.data, data.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
                         ACL_SUCCESS)
        self.assertEqual(rt.memcpy(out.ctypes.data, out.nbytes, va, data.nbytes, ACL_MEMCPY_DEVICE_TO_HOST),
                         ACL_SUCCESS)
        np.testing.assert_array_equal(out, data)
        self.assertEqual(rt.unmap_mem(va), ACL_SUCCESS)
        self.assertEqual(rt.free_physical(handle), ACL_SUCCESS)
        self.assertEqual(rt.release_mem_address(va), ACL_SUCCESS)
        with self.assertRaises(ValueError):
            rt.malloc_physical(granularity, {"handleType": 0}, 0)
        with self.assertRaises(ValueError):
            rt.malloc_physical(granularity, dict(prop, location={"id": 0}), 0)

    def test_ipc_export_key(self):
        dev = self.device_buffer(1 << 16)
        key, ret = rt.ipc_mem_get_export_key(dev, 1 << 16, 64, 0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertIsInstance(key, str)
        self.assertTrue(key)
        self.assertEqual(rt.ipc_mem_set_import_pid(key, [os.getpid()]), ACL_SUCCESS)
        self.assertEqual(rt.ipc_mem_close(key), ACL_SUCCESS)
        with self.assertRaises(ValueError):
            rt.ipc_mem_get_export_key(dev, 1 << 16, 4096, 0)


class CallbackTest(RuntimeCase):
    """launch_callback with a Python thread that subscribed and calls process_report in a loop."""

    def start_report_thread(self, stream):
        ready = threading.Event()
        stop = threading.Event()
        state = {}

        def loop():
            state["tid"] = threading.get_ident()  # pthread_self on Linux: the id subscribe_report takes
            ready.set()
            rt.set_context(self.context)
            while not stop.is_set():
                ret = rt.process_report(20)
                state.setdefault("rets", set()).add(ret)

        thread = threading.Thread(target=loop)
        thread.start()
        ready.wait()
        self.assertEqual(rt.subscribe_report(state["tid"], stream), ACL_SUCCESS)

        def finish():
            self.assertEqual(rt.unsubscribe_report(state["tid"], stream), ACL_SUCCESS)
            stop.set()
            thread.join()

        self.addCleanup(finish)
        return state["tid"]

    def test_callbacks_run_on_the_subscribed_thread_in_order(self):
        stream = self.new_stream()
        tid = self.start_report_thread(stream)
        calls = []
        payload = object()
        base_refs = sys.getrefcount(payload)

        def callback(args):
            calls.append((args[0], threading.get_ident(), args[1] is payload))

        dev = self.device_buffer(1 << 20)
        for i in range(5):
            self.assertEqual(rt.memset_async(dev, 1 << 20, i, 1 << 20, stream), ACL_SUCCESS)
            self.assertEqual(rt.launch_callback(callback, [i, payload], ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(stream), ACL_SUCCESS)
        self.assertEqual(calls, [(i, tid, True) for i in range(5)])
        self.assertNotEqual(tid, threading.get_ident())
        calls.clear()
        self.assertEqual(sys.getrefcount(payload), base_refs)  # every (fn, args) holder was freed

        done = threading.Event()
        self.assertEqual(rt.launch_callback(lambda event: event.set(), done, ACL_CALLBACK_NO_BLOCK, stream),
                         ACL_SUCCESS)
        self.assertEqual(rt.synchronize_stream(stream), ACL_SUCCESS)
        self.assertTrue(done.wait(5))

    def test_callback_exception_is_reported_not_raised(self):
        stream = self.new_stream()
        self.start_report_thread(stream)
        seen = []
        old_hook = sys.unraisablehook
        sys.unraisablehook = lambda unraisable: seen.append(unraisable.exc_type)
        try:
            def failing(args):
                raise RuntimeError("callback failure")

            self.assertEqual(rt.launch_callback(failing, None, ACL_CALLBACK_BLOCK, stream), ACL_SUCCESS)
            self.assertEqual(rt.synchronize_stream(stream), ACL_SUCCESS)
        finally:
            sys.unraisablehook = old_hook
        self.assertEqual(seen, [RuntimeError])

    def test_launch_errors(self):
        unsubscribed = self.new_stream()
        payload = object()
        base_refs = sys.getrefcount(payload)
        self.assertEqual(rt.launch_callback(print, payload, ACL_CALLBACK_BLOCK, unsubscribed),
                         ACL_ERROR_STREAM_NOT_SUBSCRIBE)
        self.assertEqual(sys.getrefcount(payload), base_refs)  # a refused launch keeps no reference
        self.assertNotEqual(rt.launch_callback(print, None, 7, unsubscribed), ACL_SUCCESS)
        with self.assertRaises(TypeError):
            rt.launch_callback(42, None, ACL_CALLBACK_BLOCK, unsubscribed)
        self.assertEqual(rt.process_report(10), ACL_ERROR_THREAD_NOT_SUBSCRIBE)
        self.assertNotEqual(rt.subscribe_report(threading.get_ident(), BOGUS), ACL_SUCCESS)
        rt.get_last_error(ACL_RT_THREAD_LEVEL)

    def test_process_report_times_out_without_callbacks(self):
        stream = self.new_stream()
        tid = threading.get_ident()
        self.assertEqual(rt.subscribe_report(tid, stream), ACL_SUCCESS)
        begin = time.monotonic()
        self.assertEqual(rt.process_report(30), ACL_ERROR_WAIT_CALLBACK_TIMEOUT)
        self.assertGreaterEqual(time.monotonic() - begin, 0.02)
        self.assertEqual(rt.unsubscribe_report(tid, stream), ACL_SUCCESS)
        rt.get_last_error(ACL_RT_THREAD_LEVEL)

    def test_exception_info_callback(self):
        infos = []

        def on_exception(info):
            self.assertIsInstance(info, int)
            infos.append((rt.get_error_code_from_exception_info(info), rt.get_stream_id_from_exception_info(info),
                          rt.get_device_id_from_exception_info(info), rt.get_task_id_from_exception_info(info)))

        self.assertEqual(rt.set_exception_info_callback(on_exception), ACL_SUCCESS)
        try:
            stream, ret = rt.create_stream()
            self.assertEqual(ret, ACL_SUCCESS)
            notify, ret = rt.create_notify(0)
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertEqual(rt.wait_and_reset_notify(notify, stream, 10), ACL_SUCCESS)  # nobody records it
            task, ret = rt.get_thread_last_task_id()
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertEqual(rt.synchronize_stream(stream), ACL_ERROR_RT_TASK_TIMEOUT)
            stream_id, ret = rt.stream_get_id(stream)
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertEqual(infos, [(ACL_ERROR_RT_TASK_TIMEOUT, stream_id, 0, task)])
            rt.destroy_stream(stream)
            rt.destroy_notify(notify)
        finally:
            self.assertEqual(rt.set_exception_info_callback(None), ACL_SUCCESS)
            rt.get_last_error(ACL_RT_THREAD_LEVEL)
        self.assertEqual(rt.set_exception_info_callback(), ACL_SUCCESS)
        with self.assertRaises(TypeError):
            rt.set_exception_info_callback(3)
        for getter in (rt.get_error_code_from_exception_info, rt.get_task_id_from_exception_info,
                       rt.get_stream_id_from_exception_info, rt.get_thread_id_from_exception_info,
                       rt.get_device_id_from_exception_info):
            self.assertEqual(getter(0), 0xFFFFFFFF)


class KernelAllocatorTest(RuntimeCase):
    def test_binary_errors(self):
        handle, ret = rt.binary_load_from_file("/nonexistent/kernel.o", [])
        self.assertEqual(handle, 0)
        self.assertNotEqual(ret, ACL_SUCCESS)
        with self.assertRaises(TypeError):
            rt.binary_load_from_file("/nonexistent/kernel.o", {"type": 1})
        with self.assertRaises(ValueError):
            rt.binary_load_from_file("/nonexistent/kernel.o", [{"type": 1}])
        with self.assertRaises(ValueError):
            rt.get_function_name(0, 4096)
        with self.assertRaises(ValueError):
            rt.register_cpu_func(0, "", "kernel")
        with self.assertRaises(TypeError):
            rt.launch_kernel_with_config(0, 1, self.stream, [{"id": 1, "value": "x"}], 0)
        self.assertNotEqual(rt.launch_kernel(0, 1, 0, 0, self.stream), ACL_SUCCESS)
        self.assertNotEqual(rt.launch_kernel_with_config(0, 1, self.stream, [], 0), ACL_SUCCESS)
        rt.get_last_error(ACL_RT_THREAD_LEVEL)

    def test_allocator_desc(self):
        desc = rt.allocator_create_desc()
        self.assertNotEqual(desc, 0)
        self.assertEqual(rt.allocator_set_obj_to_desc(desc, 0x1000), ACL_SUCCESS)
        self.assertEqual(rt.allocator_set_alloc_func_to_desc(desc, lambda allocator, size: None), ACL_SUCCESS)
        self.assertEqual(rt.allocator_set_free_func_to_desc(desc, lambda allocator, block: None), ACL_SUCCESS)
        self.assertEqual(rt.allocator_set_alloc_advise_func_to_desc(desc, lambda a, size, addr: None), ACL_SUCCESS)
        self.assertEqual(rt.allocator_set_get_addr_from_block_func_to_desc(desc, lambda block: block), ACL_SUCCESS)
        with self.assertRaises(TypeError):
            rt.allocator_set_alloc_func_to_desc(desc, 5)
        self.assertNotEqual(rt.allocator_set_alloc_func_to_desc(BOGUS, lambda a, s: None), ACL_SUCCESS)
        self.assertEqual(rt.allocator_destroy_desc(desc), ACL_SUCCESS)
        rt.get_last_error(ACL_RT_THREAD_LEVEL)


if __name__ == "__main__":
    unittest.main()
