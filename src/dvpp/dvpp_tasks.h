// The simulated DVPP's operations as tasks of a stream. Each is submitted with core::SubmitExternalWork: when the
// stream reaches it, it runs on the device's host-task engine, reads its inputs from device memory (core's
// synchronous device access, so it works whatever the driver's memory), works on host copies with the codecs
// and the VPC of image.h, and writes its outputs back. A failure fails the stream with
// ACL_ERROR_RT_AICPU_EXCEPTION (DVPP V1 runs on the AI CPU on Ascend) and a message naming the operation.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/status.h"
#include "dvpp/image.h"
#include "dvpp/picture.h"

namespace npurt::core {
class Stream;
}

namespace npurt::dvpp {

struct JpegDecodeJob {
  uint64_t data = 0;  // the file, in device memory
  uint32_t size = 0;
  Picture out;
};

struct PngDecodeJob {
  uint64_t data = 0;
  uint32_t size = 0;
  Picture out;  // RGB888 or RGBA8888
};

struct JpegEncodeJob {
  Picture in;
  uint64_t data = 0;      // the output buffer, in device memory
  uint32_t capacity = 0;  // its bytes
  uint32_t* size_out = nullptr;  // host: the encoded length, written when the task runs
  int quality = 100;
};

// One picture of a VPC operation: `crop` of `in`, resized to `paste` of `out` (the rest of `out` kept).
struct VpcItem {
  Picture in;
  Region crop;
  Picture out;
  Region paste;
};

struct VpcJob {
  std::vector<VpcItem> items;
  Interpolation how = Interpolation::kBilinear;
};

Status RunJpegDecode(const JpegDecodeJob& job);
Status RunPngDecode(const PngDecodeJob& job);
Status RunJpegEncode(const JpegEncodeJob& job);
Status RunVpc(const VpcJob& job);

// Queues `work` on `stream` as the DVPP operation `name`; `after` runs once the work ran, with its status (it
// sets the output descriptions' return codes), before the stream goes on.
Status SubmitDvppTask(core::Stream* stream, const char* name, std::function<Status()> work,
                      std::function<void(const Status&)> after);

}  // namespace npurt::dvpp
