"""acl.util: bytes and numpy to addresses and back (aliasing where CANN aliases, copying where it copies),
bad addresses refused with ValueError, and the callback threads."""
import threading
import unittest
import warnings

import numpy as np

import acl
from pyacl_testing import NPY_FLOAT32


class ConversionTest(unittest.TestCase):
    def setUp(self):
        self.rng = np.random.default_rng(3)

    def test_bytes_round_trip(self):
        data = self.rng.integers(0, 256, 4099, dtype=np.uint8).tobytes()
        address = acl.util.bytes_to_ptr(data)
        self.assertEqual(acl.util.ptr_to_bytes(address, len(data)), data)
        self.assertEqual(acl.util.ptr_to_bytes(address + 7, 5), data[7:12])
        self.assertEqual(acl.util.ptr_to_bytes(address, 0), b"")

    def test_bytes_to_ptr_takes_bytes_only(self):
        with self.assertRaises(ValueError):
            acl.util.bytes_to_ptr(bytearray(b"abc"))
        with self.assertRaises(ValueError):
            acl.util.bytes_to_ptr("text")

    def test_unmapped_addresses_raise_instead_of_crashing(self):
        with self.assertRaisesRegex(ValueError, "not mapped"):
            acl.util.ptr_to_bytes(64, 16)
        with self.assertRaisesRegex(ValueError, "null"):
            acl.util.ptr_to_bytes(0, 16)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with self.assertRaisesRegex(ValueError, "not mapped"):
                acl.util.ptr_to_numpy(64, (4,), NPY_FLOAT32)

    def test_ptr_to_numpy_aliases_and_warns(self):
        array = self.rng.standard_normal((3, 5)).astype(np.float32)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            address = acl.util.numpy_to_ptr(array)
            view = acl.util.ptr_to_numpy(address, (5, 3), NPY_FLOAT32)
        self.assertEqual(len(caught), 2)
        self.assertTrue(all("deprecated" in str(w.message) for w in caught))
        np.testing.assert_array_equal(view.reshape(3, 5), array)
        view[0, 0] = 123.5  # the view writes through to the array it aliases
        self.assertEqual(array[0, 0], np.float32(123.5))
        self.assertIs(view.base, acl.util)

    def test_numpy_contiguous_to_ptr_returns_the_array_to_keep(self):
        array = self.rng.standard_normal((4, 6)).astype(np.float32)
        strided = array[:, ::2]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            address, kept = acl.util.numpy_contiguous_to_ptr(strided)
        self.assertTrue(kept.flags["C_CONTIGUOUS"])
        np.testing.assert_array_equal(np.frombuffer(acl.util.ptr_to_bytes(address, kept.nbytes), np.float32)
                                      .reshape(4, 3), strided)
        with self.assertRaises(ValueError):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                acl.util.numpy_to_ptr([1, 2, 3])


class ThreadTest(unittest.TestCase):
    def test_thread_runs_with_its_argument_and_a_pthread_id(self):
        seen = {}

        def body(args):
            seen["args"] = args
            seen["ident"] = threading.get_ident()

        tid, ret = acl.util.start_thread(body, [1, "two"])
        self.assertEqual(ret, 0)
        self.assertEqual(acl.util.stop_thread(tid), 0)
        self.assertEqual(seen["args"], [1, "two"])
        self.assertEqual(seen["ident"], tid)  # threading.get_ident() is pthread_self() on Linux

    def test_exception_in_the_thread_is_raised_by_stop_thread(self):
        def body(_):
            raise KeyError("boom")

        tid, ret = acl.util.start_thread(body, 0)
        self.assertEqual(ret, 0)
        with self.assertRaisesRegex(RuntimeError, "KeyError"):
            acl.util.stop_thread(tid)

    def test_unknown_or_joined_thread_is_an_error_code(self):
        tid, _ = acl.util.start_thread(lambda: None, None)  # None: called without arguments
        self.assertEqual(acl.util.stop_thread(tid), 0)
        self.assertNotEqual(acl.util.stop_thread(tid), 0)
        self.assertNotEqual(acl.util.stop_thread(12345), 0)

    def test_start_thread_needs_a_callable(self):
        with self.assertRaises(TypeError):
            acl.util.start_thread(42, None)


if __name__ == "__main__":
    unittest.main()
