// DVPP (docs/dvpp.md): the sampleResnetDVPP preprocessing of a 1024 x 683 JPEG, next to libjpeg-turbo's own
// decoding of the same file in the same run.
//
// dvpp_jpeg_decode_ms         acldvppJpegDecodeAsync to NV12 (strides 1024 x 688) + aclrtSynchronizeStream
// dvpp_decode_resize_ms       the same, then acldvppVpcResizeAsync to 224 x 224 NV12, one synchronize
// turbojpeg_decode_ms         tjDecompressToYUVPlanes of the file in host memory: the decoding floor
// dvpp_decode_over_turbojpeg  (in collect.py) turbojpeg time over DVPP decode time: what the task, the copies in
//                             and out of device memory and the interleaving cost (1 = none)
#define ENABLE_DVPP_INTERFACE
#include <acl/ops/acl_dvpp.h>
#include <turbojpeg.h>

#include <cmath>
#include <vector>

#include "common/bench_util.h"

namespace npurt_bench {
namespace {

constexpr uint32_t kW = 1024, kH = 683, kWs = 1024, kHs = 688;

// A smooth random 4:2:0 JPEG (quality 90), as a camera picture compresses.
std::vector<unsigned char> MakeJpeg() {
  std::vector<unsigned char> planes[3];
  const unsigned char* src[3];
  int strides[3];
  for (int c = 0; c < 3; ++c) {
    const int pw = tjPlaneWidth(c, kW, TJSAMP_420), ph = tjPlaneHeight(c, kH, TJSAMP_420);
    planes[c].resize(static_cast<size_t>(pw) * ph);
    for (int y = 0; y < ph; ++y) {
      for (int x = 0; x < pw; ++x) {
        planes[c][static_cast<size_t>(y) * pw + x] =
            static_cast<unsigned char>(128 + 60 * std::sin(0.031 * x + 0.017 * y + c) + 20 * std::sin(0.2 * x * y / (pw + 1.0)));
      }
    }
    src[c] = planes[c].data();
    strides[c] = pw;
  }
  tjhandle tj = tjInitCompress();
  unsigned char* out = nullptr;
  unsigned long size = 0;
  if (tjCompressFromYUVPlanes(tj, src, kW, strides, kH, TJSAMP_420, &out, &size, 90, 0) != 0) std::abort();
  std::vector<unsigned char> jpeg(out, out + size);
  tjFree(out);
  tjDestroy(tj);
  return jpeg;
}

struct Pipeline {
  std::vector<unsigned char> jpeg = MakeJpeg();
  aclrtStream stream = nullptr;
  acldvppChannelDesc* channel = nullptr;
  void* file = nullptr;
  void* decoded = nullptr;
  void* resized = nullptr;
  acldvppPicDesc* dec = nullptr;
  acldvppPicDesc* res = nullptr;
  acldvppResizeConfig* config = nullptr;

  static acldvppPicDesc* Describe(void* data, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs) {
    acldvppPicDesc* d = acldvppCreatePicDesc();
    BENCH_CHECK(acldvppSetPicDescData(d, data));
    BENCH_CHECK(acldvppSetPicDescSize(d, ws * hs * 3 / 2));
    BENCH_CHECK(acldvppSetPicDescFormat(d, PIXEL_FORMAT_YUV_SEMIPLANAR_420));
    BENCH_CHECK(acldvppSetPicDescWidth(d, w));
    BENCH_CHECK(acldvppSetPicDescHeight(d, h));
    BENCH_CHECK(acldvppSetPicDescWidthStride(d, ws));
    BENCH_CHECK(acldvppSetPicDescHeightStride(d, hs));
    return d;
  }

  Pipeline() {
    UseDevice0();
    BENCH_CHECK(aclrtCreateStream(&stream));
    channel = acldvppCreateChannelDesc();
    BENCH_CHECK(acldvppCreateChannel(channel));
    BENCH_CHECK(acldvppMalloc(&file, jpeg.size()));
    BENCH_CHECK(aclrtMemcpy(file, jpeg.size(), jpeg.data(), jpeg.size(), ACL_MEMCPY_HOST_TO_DEVICE));
    BENCH_CHECK(acldvppMalloc(&decoded, kWs * kHs * 3 / 2));
    BENCH_CHECK(acldvppMalloc(&resized, 224 * 224 * 3 / 2));
    dec = Describe(decoded, kW, kH, kWs, kHs);
    res = Describe(resized, 224, 224, 224, 224);
    config = acldvppCreateResizeConfig();
  }
  ~Pipeline() {
    BENCH_CHECK(acldvppDestroyResizeConfig(config));
    BENCH_CHECK(acldvppDestroyPicDesc(dec));
    BENCH_CHECK(acldvppDestroyPicDesc(res));
    BENCH_CHECK(acldvppFree(file));
    BENCH_CHECK(acldvppFree(decoded));
    BENCH_CHECK(acldvppFree(resized));
    BENCH_CHECK(acldvppDestroyChannel(channel));
    BENCH_CHECK(acldvppDestroyChannelDesc(channel));
    BENCH_CHECK(aclrtDestroyStream(stream));
  }
  void Decode() {
    BENCH_CHECK(acldvppJpegDecodeAsync(channel, file, static_cast<uint32_t>(jpeg.size()), dec, stream));
  }
};

void DvppDecode(benchmark::State& state) {
  Pipeline p;
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    p.Decode();
    BENCH_CHECK(aclrtSynchronizeStream(p.stream));
    sampler.Add(NowNs() - t0);
  }
}
BENCHMARK(DvppDecode)->Name("dvpp_jpeg_decode_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);

void DvppDecodeResize(benchmark::State& state) {
  Pipeline p;
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    p.Decode();
    BENCH_CHECK(acldvppVpcResizeAsync(p.channel, p.dec, p.res, p.config, p.stream));
    BENCH_CHECK(aclrtSynchronizeStream(p.stream));
    sampler.Add(NowNs() - t0);
  }
}
BENCHMARK(DvppDecodeResize)->Name("dvpp_decode_resize_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);

void TurboDecode(benchmark::State& state) {
  const std::vector<unsigned char> jpeg = MakeJpeg();
  std::vector<unsigned char> planes[3];
  unsigned char* dst[3];
  int strides[3];
  for (int c = 0; c < 3; ++c) {
    strides[c] = tjPlaneWidth(c, kW, TJSAMP_420);
    planes[c].resize(static_cast<size_t>(strides[c]) * tjPlaneHeight(c, kH, TJSAMP_420));
    dst[c] = planes[c].data();
  }
  tjhandle tj = tjInitDecompress();
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    if (tjDecompressToYUVPlanes(tj, jpeg.data(), jpeg.size(), dst, kW, strides, kH, 0) != 0) std::abort();
    sampler.Add(NowNs() - t0);
  }
  tjDestroy(tj);
}
BENCHMARK(TurboDecode)->Name("turbojpeg_decode_ms")->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(0.5);

}  // namespace
}  // namespace npurt_bench
