"""acl.*: versions, fp16 helpers, data buffers, tensor descriptors and error reporting, with CANN's return
conventions (outs first, ret last; handles as ints)."""
import random
import struct
import unittest

import acl
from pyacl_testing import ACL_FLOAT, ACL_FORMAT_ND, ACL_SUCCESS, RuntimeTestCase


class TopLevelTest(RuntimeTestCase):
    def test_versions(self):
        major, minor, patch, ret = acl.get_version()
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertGreaterEqual(major, 1)
        text, ret = acl.get_version_str("runtime")
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertRegex(text, r"^\d+\.\d+\.\d+")
        self.assertTrue(acl.get_soc_name())
        version, ret = acl.get_cann_version(0)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertEqual(set(version), {"version", "major_version", "minor_version", "release_version",
                                        "patch_version", "reserved"})

    def test_fp16_round_trip_matches_ieee_half(self):
        rng = random.Random(7)
        for _ in range(200):
            value = rng.uniform(-1000.0, 1000.0)
            bits = acl.float_to_float16(value)
            self.assertEqual(bits, struct.unpack("<H", struct.pack("<e", value))[0])
            self.assertEqual(acl.float16_to_float(bits), struct.unpack("<e", struct.pack("<H", bits))[0])

    def test_data_buffer(self):
        buffer = acl.create_data_buffer(0x1000, 96)
        self.assertNotEqual(buffer, 0)
        self.assertEqual(acl.get_data_buffer_addr(buffer), 0x1000)
        self.assertEqual(acl.get_data_buffer_size_v2(buffer), 96)
        self.assertEqual(acl.get_data_buffer_size(buffer), 96)
        self.assertEqual(acl.update_data_buffer(buffer, 0x2000, 32), ACL_SUCCESS)
        self.assertEqual(acl.get_data_buffer_addr(buffer), 0x2000)
        self.assertEqual(acl.destroy_data_buffer(buffer), ACL_SUCCESS)
        # Destroyed, null or foreign handles: an error code, never a crash.
        self.assertNotEqual(acl.destroy_data_buffer(buffer), ACL_SUCCESS)
        self.assertNotEqual(acl.destroy_data_buffer(0), ACL_SUCCESS)
        self.assertEqual(acl.get_data_buffer_size_v2(0), 0)

    def test_tensor_desc(self):
        rng = random.Random(11)
        dims = [rng.randint(1, 9) for _ in range(rng.randint(1, 5))]
        desc = acl.create_tensor_desc(ACL_FLOAT, dims, ACL_FORMAT_ND)
        self.assertNotEqual(desc, 0)
        count = 1
        for d in dims:
            count *= d
        self.assertEqual(acl.get_tensor_desc_num_dims(desc), len(dims))
        self.assertEqual(acl.get_tensor_desc_element_count(desc), count)
        self.assertEqual(acl.get_tensor_desc_size(desc), 4 * count)
        self.assertEqual(acl.get_tensor_desc_type(desc), ACL_FLOAT)
        self.assertEqual(acl.get_tensor_desc_format(desc), ACL_FORMAT_ND)
        for i, d in enumerate(dims):
            self.assertEqual(acl.get_tensor_desc_dim_v2(desc, i), (d, ACL_SUCCESS))
        dim, ret = acl.get_tensor_desc_dim_v2(desc, len(dims))
        self.assertNotEqual(ret, ACL_SUCCESS)
        acl.set_tensor_desc_name(desc, "input_0")
        self.assertEqual(acl.get_tensor_desc_name(desc), "input_0")
        self.assertEqual(acl.set_tensor_shape(desc, [2, 3]), ACL_SUCCESS)
        self.assertEqual(acl.get_tensor_desc_element_count(desc), 6)
        self.assertEqual(acl.set_tensor_shape_range(desc, [[1, 4], [3, 3]]), ACL_SUCCESS)
        with self.assertRaises(ValueError):
            acl.set_tensor_shape_range(desc, [[1, 4, 5]])
        with self.assertRaises(TypeError):
            acl.create_tensor_desc(ACL_FLOAT, (2, 3), ACL_FORMAT_ND)  # CANN takes a list only
        self.assertIsNone(acl.destroy_tensor_desc(desc))

    def test_data_type_size(self):
        self.assertEqual(acl.data_type_size(ACL_FLOAT), 4)
        self.assertEqual(acl.data_type_size(1), 2)  # ACL_FLOAT16

    def test_recent_error_message_names_the_failure(self):
        model_id, ret = acl.mdl.load_from_file("/nonexistent/model.om")
        self.assertNotEqual(ret, ACL_SUCCESS)
        self.assertIn("model.om", acl.get_recent_err_msg())

    def test_wrong_argument_types_raise_type_error(self):
        with self.assertRaises(TypeError):
            acl.create_data_buffer("not an address", 4)
        with self.assertRaises(TypeError):
            acl.get_tensor_desc_size(None)

    def test_unsupported_modules_say_so(self):
        for module in (acl.media, acl.himpi, acl.fv):
            with self.assertRaisesRegex(NotImplementedError, "not supported by npurt"):
                module.anything

    def test_submodules_import_by_name(self):
        import importlib
        for name in ("rt", "mdl", "op", "util", "prof", "blas", "media"):
            self.assertIs(importlib.import_module("acl." + name), getattr(acl, name))


if __name__ == "__main__":
    unittest.main()
