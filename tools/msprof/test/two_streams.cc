// The known two-stream program of the msprof golden tests (and the README timeline).
//
// Stream A uploads a buffer, fills a second one and records an event; stream B waits for that event,
// copies device-to-device and downloads the result, `rounds` times. msproftx marks each round and a
// range covers the whole run. The program checks its own result, so a profile of a wrong run never
// passes for a right one.
//
//   two_streams [rounds=3] [bytes=1048576]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_prof.h"

#define CHECK(expr)                                                                                  \
  do {                                                                                               \
    aclError rc_ = (expr);                                                                           \
    if (rc_ != ACL_SUCCESS) {                                                                        \
      const char* msg_ = aclGetRecentErrMsg();                                                       \
      std::fprintf(stderr, "%s failed: %d %s\n", #expr, rc_, msg_ ? msg_ : "");                      \
      return 1;                                                                                      \
    }                                                                                                \
  } while (0)

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 3;
  const size_t bytes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : (1u << 20);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream a = nullptr, b = nullptr;
  CHECK(aclrtCreateStream(&a));
  CHECK(aclrtCreateStream(&b));
  aclrtEvent ev = nullptr;
  CHECK(aclrtCreateEvent(&ev));
  void *src = nullptr, *fill = nullptr, *dst = nullptr;
  CHECK(aclrtMalloc(&src, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&fill, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dst, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  std::vector<uint8_t> host(bytes), back(bytes);
  std::mt19937 rng(1234);
  for (auto& x : host) x = static_cast<uint8_t>(rng() | 1);

  void* range_stamp = aclprofCreateStamp();
  const char* range_msg = "two_streams";
  CHECK(aclprofSetStampTraceMessage(range_stamp, range_msg, static_cast<uint32_t>(std::strlen(range_msg))));
  uint32_t range = 0;
  CHECK(aclprofRangeStart(range_stamp, &range));
  for (int r = 0; r < rounds; ++r) {
    const std::string mark = "round " + std::to_string(r);
    CHECK(aclprofMarkEx(mark.c_str(), mark.size(), a));
    CHECK(aclrtMemcpyAsync(src, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, a));
    CHECK(aclrtMemsetAsync(fill, bytes, 0x5a, bytes, a));
    CHECK(aclrtRecordEvent(ev, a));
    CHECK(aclrtStreamWaitEvent(b, ev));
    CHECK(aclrtMemcpyAsync(dst, bytes, src, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, b));
    CHECK(aclrtMemcpyAsync(back.data(), bytes, dst, bytes, ACL_MEMCPY_DEVICE_TO_HOST, b));
    CHECK(aclrtSynchronizeStream(b));
    if (std::memcmp(back.data(), host.data(), bytes) != 0) {
      std::fprintf(stderr, "round %d: data mismatch\n", r);
      return 2;
    }
  }
  CHECK(aclrtSynchronizeStream(a));
  CHECK(aclprofRangeStop(range));
  aclprofDestroyStamp(range_stamp);
  CHECK(aclrtFree(src));
  CHECK(aclrtFree(fill));
  CHECK(aclrtFree(dst));
  CHECK(aclrtDestroyEvent(ev));
  CHECK(aclrtDestroyStream(a));
  CHECK(aclrtDestroyStream(b));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("two_streams: %d rounds of %zu bytes OK\n", rounds, bytes);
  return 0;
}
