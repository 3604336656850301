"""acl.media: DVPP V1 from Python (pyACL's names and return conventions) on random pictures: JPEG encode and
decode round trips, a resize against numpy, a batch crop returning its destination batch, and video refused."""
import unittest

import numpy as np

import acl
from pyacl_testing import RuntimeTestCase

ACL_SUCCESS = 0
ACL_ERROR_INVALID_PARAM = 100000
ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST = 1, 2
PIXEL_FORMAT_YUV_SEMIPLANAR_420 = 1


def smooth(h, w, seed):
    rng = np.random.default_rng(seed)
    a, b, c = rng.uniform(0.02, 0.15, 3)
    y, x = np.mgrid[0:h, 0:w]
    return (120 + 60 * np.sin(a * x + b * y + c)).astype(np.uint8)


def bilinear(src, dw, dh):
    h, w = src.shape
    fy = np.clip((np.arange(dh) + 0.5) * h / dh - 0.5, 0, h - 1)
    fx = np.clip((np.arange(dw) + 0.5) * w / dw - 0.5, 0, w - 1)
    y0, x0 = fy.astype(int), fx.astype(int)
    y1, x1 = np.minimum(y0 + 1, h - 1), np.minimum(x0 + 1, w - 1)
    ay, ax = (fy - y0)[:, None], (fx - x0)[None, :]
    s = src.astype(np.float64)
    v = (1 - ay) * ((1 - ax) * s[y0][:, x0] + ax * s[y0][:, x1]) + ay * ((1 - ax) * s[y1][:, x0] + ax * s[y1][:, x1])
    return np.clip(np.round(v), 0, 255).astype(np.uint8)


class MediaTest(RuntimeTestCase):
    def setUp(self):
        self.channel = acl.media.dvpp_create_channel_desc()
        self.assertEqual(acl.media.dvpp_create_channel(self.channel), ACL_SUCCESS)
        self.buffers, self.descs = [], []

    def tearDown(self):
        for d in self.descs:
            self.assertEqual(acl.media.dvpp_destroy_pic_desc(d), ACL_SUCCESS)
        for b in self.buffers:
            self.assertEqual(acl.media.dvpp_free(b), ACL_SUCCESS)
        self.assertEqual(acl.media.dvpp_destroy_channel(self.channel), ACL_SUCCESS)
        self.assertEqual(acl.media.dvpp_destroy_channel_desc(self.channel), ACL_SUCCESS)

    def dvpp_buffer(self, size, host=None):
        ptr, ret = acl.media.dvpp_malloc(size)
        self.assertEqual(ret, ACL_SUCCESS)
        self.buffers.append(ptr)
        if host is not None:
            host = np.ascontiguousarray(host)
            self.assertEqual(acl.rt.memcpy(ptr, size, host.ctypes.data, host.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
                             ACL_SUCCESS)
        return ptr

    def download(self, ptr, size):
        out = np.empty(size, np.uint8)
        self.assertEqual(acl.rt.memcpy(out.ctypes.data, size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        return out

    def nv12_desc(self, ptr, w, h, ws, hs):
        d = acl.media.dvpp_create_pic_desc()
        self.descs.append(d)
        for setter, value in ((acl.media.dvpp_set_pic_desc_data, ptr),
                              (acl.media.dvpp_set_pic_desc_format, PIXEL_FORMAT_YUV_SEMIPLANAR_420),
                              (acl.media.dvpp_set_pic_desc_width, w), (acl.media.dvpp_set_pic_desc_height, h),
                              (acl.media.dvpp_set_pic_desc_width_stride, ws),
                              (acl.media.dvpp_set_pic_desc_height_stride, hs),
                              (acl.media.dvpp_set_pic_desc_size, ws * hs * 3 // 2)):
            self.assertEqual(setter(d, value), ACL_SUCCESS)
        return d

    def test_encode_decode_and_resize(self):
        w, h = 128, 96
        y = smooth(h, w, 1)
        uv = np.stack([smooth(h // 2, w // 2, 2), smooth(h // 2, w // 2, 3)], axis=-1)
        nv12 = np.concatenate([y.ravel(), uv.ravel()])
        src = self.nv12_desc(self.dvpp_buffer(nv12.size, nv12), w, h, w, h)
        config = acl.media.dvpp_create_jpege_config()
        self.assertEqual(acl.media.dvpp_set_jpege_config_level(config, 95), ACL_SUCCESS)
        bound, ret = acl.media.dvpp_jpeg_predict_enc_size(src, config)
        self.assertEqual(ret, ACL_SUCCESS)
        jpeg_dev = self.dvpp_buffer(bound)
        size = np.array([bound], np.uint32)
        self.assertEqual(acl.media.dvpp_jpeg_encode_async(self.channel, src, jpeg_dev, size.ctypes.data, config,
                                                          self.stream), ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        self.assertEqual(acl.media.dvpp_destroy_jpege_config(config), ACL_SUCCESS)
        n = int(size[0])
        self.assertTrue(100 < n <= bound)
        jpeg = self.download(jpeg_dev, n)
        width, height, components, ret = acl.media.dvpp_jpeg_get_image_info(jpeg.ctypes.data, n)
        self.assertEqual((width, height, components, ret), (w, h, 3, ACL_SUCCESS))
        dec_size, ret = acl.media.dvpp_jpeg_predict_dec_size(jpeg.ctypes.data, n, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
        self.assertEqual((dec_size, ret), (128 * 96 * 3 // 2, ACL_SUCCESS))
        dec = self.nv12_desc(self.dvpp_buffer(dec_size), w, h, 128, 96)
        self.assertEqual(acl.media.dvpp_jpeg_decode_async(self.channel, jpeg_dev, n, dec, self.stream), ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        decoded = self.download(acl.media.dvpp_get_pic_desc_data(dec), dec_size)[:w * h].reshape(h, w)
        mse = np.mean((decoded.astype(float) - y) ** 2)
        self.assertGreater(10 * np.log10(255 ** 2 / max(mse, 1e-9)), 35)
        out = self.nv12_desc(self.dvpp_buffer(48 * 36 * 3 // 2), 48, 36, 48, 36)
        resize = acl.media.dvpp_create_resize_config()
        self.assertEqual(acl.media.dvpp_vpc_resize_async(self.channel, dec, out, resize, self.stream), ACL_SUCCESS)
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        self.assertEqual(acl.media.dvpp_destroy_resize_config(resize), ACL_SUCCESS)
        resized = self.download(acl.media.dvpp_get_pic_desc_data(out), 48 * 36)[:48 * 36].reshape(36, 48)
        self.assertLessEqual(np.abs(resized.astype(int) - bilinear(decoded, 48, 36)).max(), 1)

    def test_batch_crop_returns_the_destination_batch(self):
        rng = np.random.default_rng(5)
        w = h = 64
        nv12 = rng.integers(0, 256, w * h * 3 // 2, dtype=np.uint8)
        src_buf = self.dvpp_buffer(nv12.size, nv12)
        src = acl.media.dvpp_create_batch_pic_desc(1)
        dst = acl.media.dvpp_create_batch_pic_desc(2)
        for batch, buf, side in ((src, src_buf, 64), (dst, self.dvpp_buffer(16 * 16 * 3 // 2), 16),
                                 (dst, self.dvpp_buffer(16 * 16 * 3 // 2), 16)):
            index = 1 if batch == dst and buf == self.buffers[-1] else 0
            d = acl.media.dvpp_get_pic_desc(batch, index)
            acl.media.dvpp_set_pic_desc_data(d, buf)
            acl.media.dvpp_set_pic_desc_format(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420)
            for setter in (acl.media.dvpp_set_pic_desc_width, acl.media.dvpp_set_pic_desc_height,
                           acl.media.dvpp_set_pic_desc_width_stride, acl.media.dvpp_set_pic_desc_height_stride):
                setter(d, side)
            acl.media.dvpp_set_pic_desc_size(d, side * side * 3 // 2)
        rois = [acl.media.dvpp_create_roi_config(0, 15, 0, 15), acl.media.dvpp_create_roi_config(32, 47, 16, 31)]
        out, ret = acl.media.dvpp_vpc_batch_crop_async(self.channel, src, [2], dst, rois, self.stream)
        self.assertEqual((out, ret), (dst, ACL_SUCCESS))
        self.assertEqual(acl.rt.synchronize_stream(self.stream), ACL_SUCCESS)
        y = nv12[:w * h].reshape(h, w)
        for i, (x0, y0) in enumerate(((0, 0), (32, 16))):
            got = self.download(acl.media.dvpp_get_pic_desc_data(acl.media.dvpp_get_pic_desc(dst, i)), 256)
            np.testing.assert_array_equal(got.reshape(16, 16), y[y0:y0 + 16, x0:x0 + 16])
        for r in rois:
            self.assertEqual(acl.media.dvpp_destroy_roi_config(r), ACL_SUCCESS)
        self.assertEqual(acl.media.dvpp_destroy_batch_pic_desc(src), ACL_SUCCESS)
        self.assertEqual(acl.media.dvpp_destroy_batch_pic_desc(dst), ACL_SUCCESS)

    def test_bad_input_and_video(self):
        junk = np.frombuffer(b"not a jpeg at all", np.uint8).copy()
        *_, ret = acl.media.dvpp_jpeg_get_image_info(junk.ctypes.data, junk.size)
        self.assertEqual(ret, ACL_ERROR_INVALID_PARAM)
        self.assertIn("not a JPEG", acl.get_recent_err_msg())
        with self.assertRaisesRegex(NotImplementedError, "video decoding and encoding are not simulated"):
            acl.media.vdec_create_channel_desc


if __name__ == "__main__":
    unittest.main()
