// graph_replay: capture a two-stream step once, replay it many times, update part of it in place.
//
// The step: copy the input from pinned host memory to the device, fork to a second stream that doubles
// a 32-bit word with a value write, join back, copy the result to pinned host memory. Captured once;
// each replay sees the new input. A task group (the fill that marks the output) is then re-captured with
// another value and later replays use it.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "acl/acl.h"

#define CHECK(expr)                                                                        \
  do {                                                                                     \
    aclError rc_ = (expr);                                                                 \
    if (rc_ != ACL_SUCCESS) {                                                              \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #expr, rc_, aclGetRecentErrMsg());       \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

int main() {
  constexpr size_t kBytes = 1 << 16;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream main_stream = nullptr, side = nullptr, updater = nullptr;
  CHECK(aclrtCreateStream(&main_stream));
  CHECK(aclrtCreateStream(&side));
  CHECK(aclrtCreateStream(&updater));
  aclrtEvent fork = nullptr, join = nullptr;
  CHECK(aclrtCreateEvent(&fork));
  CHECK(aclrtCreateEvent(&join));
  void *in_host = nullptr, *out_host = nullptr, *dev = nullptr, *word = nullptr;
  CHECK(aclrtMallocHost(&in_host, kBytes));
  CHECK(aclrtMallocHost(&out_host, kBytes + 8));
  CHECK(aclrtMalloc(&dev, kBytes + 64, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&word, 8, ACL_MEM_MALLOC_HUGE_FIRST));
  auto* out_bytes = static_cast<uint8_t*>(out_host);
  auto* marker = static_cast<uint8_t*>(dev) + kBytes;

  // Record the step.
  aclmdlRI step = nullptr;
  aclrtTaskGrp mark = nullptr;
  CHECK(aclmdlRICaptureBegin(main_stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  CHECK(aclrtMemcpyAsync(dev, kBytes, in_host, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, main_stream));
  CHECK(aclrtRecordEvent(fork, main_stream));
  CHECK(aclrtStreamWaitEvent(side, fork));  // `side` joins the capture
  CHECK(aclrtValueWrite(word, 42, 0, side));
  CHECK(aclrtRecordEvent(join, side));
  CHECK(aclrtStreamWaitEvent(main_stream, join));
  CHECK(aclmdlRICaptureTaskGrpBegin(main_stream));
  CHECK(aclrtMemsetAsync(marker, 8, 0x11, 8, main_stream));
  CHECK(aclmdlRICaptureTaskGrpEnd(main_stream, &mark));
  CHECK(aclrtMemcpyAsync(out_host, kBytes + 8, dev, kBytes + 8, ACL_MEMCPY_DEVICE_TO_HOST, main_stream));
  CHECK(aclmdlRICaptureEnd(main_stream, &step));
  CHECK(aclmdlRISetName(step, "graph_replay step"));

  uint32_t streams = 0;
  CHECK(aclmdlRIGetStreams(step, nullptr, &streams));
  std::printf("captured a model of %u streams\n", streams);

  int failures = 0;
  for (int round = 0; round < 20; ++round) {
    if (round == 10) {
      // Re-capture the marker fill with another value; replays from now on use it.
      CHECK(aclmdlRICaptureTaskUpdateBegin(updater, mark));
      CHECK(aclrtMemsetAsync(marker, 8, 0x22, 8, updater));
      CHECK(aclmdlRICaptureTaskUpdateEnd(updater));
    }
    std::memset(in_host, round + 1, kBytes);
    CHECK(aclmdlRIExecuteAsync(step, main_stream));
    CHECK(aclrtSynchronizeStream(main_stream));
    const uint8_t want_marker = round < 10 ? 0x11 : 0x22;
    for (size_t i = 0; i < kBytes; ++i) failures += out_bytes[i] != static_cast<uint8_t>(round + 1);
    for (size_t i = 0; i < 8; ++i) failures += out_bytes[kBytes + i] != want_marker;
  }
  uint64_t w = 0;
  CHECK(aclrtMemcpy(&w, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  failures += w != 42;
  std::printf("20 replays, %d wrong bytes\n", failures);

  CHECK(aclmdlRIDestroy(step));
  CHECK(aclrtDestroyEvent(fork));
  CHECK(aclrtDestroyEvent(join));
  CHECK(aclrtFree(dev));
  CHECK(aclrtFree(word));
  CHECK(aclrtFreeHost(in_host));
  CHECK(aclrtFreeHost(out_host));
  CHECK(aclrtDestroyStream(main_stream));
  CHECK(aclrtDestroyStream(side));
  CHECK(aclrtDestroyStream(updater));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf(failures == 0 ? "PASS\n" : "FAIL\n");
  return failures == 0 ? 0 : 1;
}
