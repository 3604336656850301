"""acl.blas: GEMM and GEMV on random data against numpy, handles, and error codes."""
import unittest

import numpy as np

import acl
from pyacl_testing import RuntimeTestCase

ACL_SUCCESS = 0
ACL_FLOAT, ACL_FLOAT16, ACL_INT8, ACL_INT32 = 0, 1, 2, 3
ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_NZ = 0, 1, 2
ACL_COMPUTE_HIGH_PRECISION = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
PACKED = -1  # leading dimension / increment of a packed matrix or vector


class BlasTest(RuntimeTestCase):
    def setUp(self):
        self.rng = np.random.default_rng(2024)
        self.allocations = []

    def tearDown(self):
        for ptr in self.allocations:
            self.assertEqual(acl.rt.free(ptr), ACL_SUCCESS)

    def to_device(self, host):
        host = np.ascontiguousarray(host)
        ptr, ret = acl.rt.malloc(host.nbytes, ACL_MEM_MALLOC_HUGE_FIRST)
        self.assertEqual(ret, ACL_SUCCESS)
        self.allocations.append(ptr)
        ret = acl.rt.memcpy(ptr, host.nbytes, host.ctypes.data, host.nbytes, ACL_MEMCPY_HOST_TO_DEVICE)
        self.assertEqual(ret, ACL_SUCCESS)
        return ptr

    def from_device(self, ptr, like):
        host = np.empty_like(like)
        ret = acl.rt.memcpy(host.ctypes.data, host.nbytes, ptr, host.nbytes, ACL_MEMCPY_DEVICE_TO_HOST)
        self.assertEqual(ret, ACL_SUCCESS)
        return host

    def sync(self):
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)

    def randn(self, shape, dtype=np.float32):
        return self.rng.standard_normal(shape).astype(dtype)

    def randint8(self, shape):
        return self.rng.integers(-20, 20, size=shape, dtype=np.int8)

    def test_gemm_ex_float32(self):
        m, n, k = 7, 5, 9
        for trans_a, trans_b in ((ACL_TRANS_N, ACL_TRANS_N), (ACL_TRANS_T, ACL_TRANS_N), (ACL_TRANS_N, ACL_TRANS_T)):
            with self.subTest(trans_a=trans_a, trans_b=trans_b):
                a = self.randn([k, m] if trans_a == ACL_TRANS_T else [m, k])
                b = self.randn([n, k] if trans_b == ACL_TRANS_T else [k, n])
                c = self.randn([m, n])
                alpha, beta = np.float32(1.5), np.float32(0.5)
                # alpha and beta in device memory, as CANN's samples keep them
                d_alpha, d_beta = self.to_device(np.array([alpha])), self.to_device(np.array([beta]))
                d_a, d_b, d_c = self.to_device(a), self.to_device(b), self.to_device(c)
                ret = acl.blas.gemm_ex(trans_a, trans_b, ACL_TRANS_N, m, n, k, d_alpha, d_a, PACKED, ACL_FLOAT, d_b,
                                       PACKED, ACL_FLOAT, d_beta, d_c, PACKED, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION,
                                       self.stream)
                self.assertEqual(ret, ACL_SUCCESS)
                self.sync()
                op_a = a.T if trans_a == ACL_TRANS_T else a
                op_b = b.T if trans_b == ACL_TRANS_T else b
                np.testing.assert_allclose(self.from_device(d_c, c), alpha * (op_a @ op_b) + beta * c,
                                           rtol=1e-4, atol=1e-4)

    def test_hgemm_with_host_scalars(self):
        m, n, k = 16, 8, 32
        a, b, c = self.randn([m, k], np.float16), self.randn([k, n], np.float16), self.randn([m, n], np.float16)
        alpha, beta = np.array([0.75], np.float16), np.array([-1.0], np.float16)
        d_a, d_b, d_c = self.to_device(a), self.to_device(b), self.to_device(c)
        # Host scalars are read at the call.
        ret = acl.blas.hgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, alpha.ctypes.data, d_a, PACKED, d_b,
                             PACKED, beta.ctypes.data, d_c, PACKED, ACL_COMPUTE_HIGH_PRECISION, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        expected = 0.75 * (a.astype(np.float32) @ b.astype(np.float32)) - c.astype(np.float32)
        np.testing.assert_allclose(self.from_device(d_c, c).astype(np.float32), expected, rtol=2e-2, atol=5e-2)

    def test_s8gemm_is_exact(self):
        m, n, k = 6, 10, 12
        a, b = self.randint8([m, k]), self.randint8([k, n])
        c = self.rng.integers(-100, 100, size=[m, n], dtype=np.int32)
        d_alpha, d_beta = self.to_device(np.array([3], np.int32)), self.to_device(np.array([2], np.int32))
        d_a, d_b, d_c = self.to_device(a), self.to_device(b), self.to_device(c)
        ret = acl.blas.s8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, d_alpha, d_a, PACKED, d_b, PACKED,
                              d_beta, d_c, PACKED, ACL_COMPUTE_HIGH_PRECISION, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        expected = 3 * (a.astype(np.int32) @ b.astype(np.int32)) + 2 * c
        np.testing.assert_array_equal(self.from_device(d_c, c), expected)

    def test_gemv_ex_float32(self):
        m, n = 9, 4
        for trans in (ACL_TRANS_N, ACL_TRANS_T):
            with self.subTest(trans=trans):
                a = self.randn([n, m] if trans == ACL_TRANS_T else [m, n])
                x, y = self.randn([n]), self.randn([m])
                d_alpha = self.to_device(np.array([2.0], np.float32))
                d_beta = self.to_device(np.array([0.25], np.float32))
                d_a, d_x, d_y = self.to_device(a), self.to_device(x), self.to_device(y)
                ret = acl.blas.gemv_ex(trans, m, n, d_alpha, d_a, PACKED, ACL_FLOAT, d_x, 1, ACL_FLOAT, d_beta, d_y,
                                       1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, self.stream)
                self.assertEqual(ret, ACL_SUCCESS)
                self.sync()
                op_a = a.T if trans == ACL_TRANS_T else a
                np.testing.assert_allclose(self.from_device(d_y, y), 2.0 * (op_a @ x) + 0.25 * y, rtol=1e-4,
                                           atol=1e-4)

    def test_hgemv_and_s8gemv(self):
        m, n = 8, 16
        a, x, y = self.randn([m, n], np.float16), self.randn([n], np.float16), self.randn([m], np.float16)
        d_alpha, d_beta = self.to_device(np.array([1.0], np.float16)), self.to_device(np.array([0.0], np.float16))
        d_a, d_x, d_y = self.to_device(a), self.to_device(x), self.to_device(y)
        ret = acl.blas.hgemv(ACL_TRANS_N, m, n, d_alpha, d_a, PACKED, d_x, 1, d_beta, d_y, 1,
                             ACL_COMPUTE_HIGH_PRECISION, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        expected = a.astype(np.float32) @ x.astype(np.float32)
        np.testing.assert_allclose(self.from_device(d_y, y).astype(np.float32), expected, rtol=2e-2, atol=5e-2)

        a8, x8 = self.randint8([m, n]), self.randint8([n])
        y32 = self.rng.integers(-50, 50, size=[m], dtype=np.int32)
        d_alpha, d_beta = self.to_device(np.array([1], np.int32)), self.to_device(np.array([-1], np.int32))
        d_a, d_x, d_y = self.to_device(a8), self.to_device(x8), self.to_device(y32)
        ret = acl.blas.s8gemv(ACL_TRANS_N, m, n, d_alpha, d_a, PACKED, d_x, 1, d_beta, d_y, 1,
                              ACL_COMPUTE_HIGH_PRECISION, self.stream)
        self.assertEqual(ret, ACL_SUCCESS)
        self.sync()
        np.testing.assert_array_equal(self.from_device(d_y, y32), a8.astype(np.int32) @ x8.astype(np.int32) - y32)

    def test_gemm_handle_runs_with_execute_with_handle(self):
        m, n, k = 4, 6, 3
        handle, ret = acl.blas.create_handle_for_gemm_ex(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, ACL_FLOAT,
                                                         ACL_FLOAT, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION)
        self.assertEqual(ret, ACL_SUCCESS)
        self.assertNotEqual(handle, 0)
        a, b, c = self.randn([m, k]), self.randn([k, n]), self.randn([m, n])
        alpha, beta = np.array([1.0], np.float32), np.array([1.0], np.float32)
        hosts = (a, b, c, alpha, beta)
        ptrs = [self.to_device(h) for h in hosts]
        bufs = [acl.create_data_buffer(p, h.nbytes) for p, h in zip(ptrs, hosts)]
        try:
            # The GEMM operator: inputs a, b, c, alpha, beta; output c.
            ret = acl.op.execute_with_handle(handle, bufs, [bufs[2]], self.stream)
            self.assertEqual(ret, ACL_SUCCESS)
            self.sync()
            np.testing.assert_allclose(self.from_device(ptrs[2], c), a @ b + c, rtol=1e-4, atol=1e-4)
        finally:
            for buf in bufs:
                acl.destroy_data_buffer(buf)
            acl.op.destroy_handle(handle)

    def test_create_handles(self):
        blas, hp = acl.blas, ACL_COMPUTE_HIGH_PRECISION
        results = [
            blas.create_handle_for_gemv_ex(ACL_TRANS_N, 8, 4, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, hp),
            blas.create_handle_for_hgemv(ACL_TRANS_T, 8, 4, hp),
            blas.create_handle_for_s8gemv(ACL_TRANS_N, 8, 4, hp),
            blas.create_handle_for_hgemm(ACL_TRANS_N, ACL_TRANS_T, ACL_TRANS_N, 8, 4, 2, hp),
            blas.create_handle_for_s8gemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 8, 4, 2, hp),
        ]
        for handle, ret in results:
            self.assertEqual(ret, ACL_SUCCESS)
            self.assertNotEqual(handle, 0)
            acl.op.destroy_handle(handle)
        # FRACTAL_NZ layouts and empty shapes: no handle, a code.
        self.assertEqual(blas.create_handle_for_hgemm(ACL_TRANS_NZ, ACL_TRANS_N, ACL_TRANS_N, 8, 4, 2, hp)[0], 0)
        handle, ret = blas.create_handle_for_s8gemv(ACL_TRANS_N, 0, 4, hp)
        self.assertEqual(handle, 0)
        self.assertNotEqual(ret, ACL_SUCCESS)

    def test_errors(self):
        m, n, k = 2, 2, 2
        a = self.to_device(self.randn([m, k]))
        s = self.to_device(np.array([1.0], np.float32))
        hp = ACL_COMPUTE_HIGH_PRECISION

        def gemm(m=m, n=n, k=k, a=a, lda=PACKED, stream=self.stream):
            return acl.blas.gemm_ex(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, s, a, lda, ACL_FLOAT, a, PACKED,
                                    ACL_FLOAT, s, a, PACKED, ACL_FLOAT, hp, stream)

        self.assertEqual(gemm(), ACL_SUCCESS)
        self.sync()
        self.assertNotEqual(gemm(m=0), ACL_SUCCESS)
        self.assertNotEqual(gemm(a=0), ACL_SUCCESS)
        self.assertNotEqual(gemm(lda=1), ACL_SUCCESS)  # shorter than a row
        self.assertNotEqual(gemm(stream=12345), ACL_SUCCESS)
        # incx is passed as incx: a strided x is refused even when incy is 1.
        ret = acl.blas.gemv_ex(ACL_TRANS_N, m, n, s, a, PACKED, ACL_FLOAT, a, 2, ACL_FLOAT, s, a, 1, ACL_FLOAT, hp,
                               self.stream)
        self.assertNotEqual(ret, ACL_SUCCESS)
        with self.assertRaises(TypeError):
            acl.blas.gemm_ex(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, 2.0, n, k, s, a, PACKED, ACL_FLOAT, a, PACKED,
                             ACL_FLOAT, s, a, PACKED, ACL_FLOAT, hp, self.stream)
        with self.assertRaises(TypeError):
            acl.blas.hgemm(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, None, a, PACKED, a, PACKED, s, a, PACKED,
                           hp, self.stream)
        with self.assertRaises(TypeError):
            acl.blas.create_handle_for_hgemv(ACL_TRANS_N, m, n)


if __name__ == "__main__":
    unittest.main()
