// The known two-stream program of the msprof golden tests (and the README timeline).
//
// Stream A uploads a buffer, fills a second one and records an event; stream B waits for that event,
// copies device-to-device and downloads the result, `rounds` times. msproftx marks each round and a
// range covers the whole run. With `rows cols` given, each round also runs single operators: an Add
// (aclopExecuteV2, float32 [rows, cols], ND) on stream A and a Mul (float32 [rows, cols] by [1, cols],
// a broadcast row, ND) on stream B, so the profile holds operator tasks with their shapes. The program
// checks its own results, so a profile of a wrong run never passes for a right one.
//
// With TWO_STREAMS_ACLPROF_DIR set, the program profiles itself through the aclprof* API (aclprofInit on
// that directory, task time on device 0), as CANN programs do without the msprof wrapper.
//
//   two_streams [rounds=3] [bytes=1048576] [rows cols]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op.h"
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
  const int64_t rows = argc > 4 ? std::atoll(argv[3]) : 0;
  const int64_t cols = argc > 4 ? std::atoll(argv[4]) : 0;
  const bool with_ops = rows > 0 && cols > 0;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  const char* prof_dir = std::getenv("TWO_STREAMS_ACLPROF_DIR");
  aclprofConfig* prof_config = nullptr;
  if (prof_dir != nullptr) {
    CHECK(aclprofInit(prof_dir, std::strlen(prof_dir)));
    uint32_t device = 0;
    prof_config = aclprofCreateConfig(&device, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME | ACL_PROF_ACL_API);
    if (prof_config == nullptr) {
      std::fprintf(stderr, "aclprofCreateConfig failed: %s\n", aclGetRecentErrMsg());
      return 1;
    }
    CHECK(aclprofStart(prof_config));
  }
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

  // Operator tensors: x, y [rows, cols] and w [1, cols]; sum = x + y on stream A, prod = x * w on stream B.
  const size_t n = static_cast<size_t>(rows * cols), tbytes = n * sizeof(float), wbytes = cols * sizeof(float);
  std::vector<float> hx(n), hy(n), hw(static_cast<size_t>(cols)), hsum(n), hprod(n);
  std::uniform_real_distribution<float> uni(-4.0f, 4.0f);
  for (auto& v : hx) v = uni(rng);
  for (auto& v : hy) v = uni(rng);
  for (auto& v : hw) v = uni(rng);
  void *x = nullptr, *y = nullptr, *w = nullptr, *sum = nullptr, *prod = nullptr;
  const int64_t mat_dims[] = {rows, cols}, row_dims[] = {1, cols};
  aclTensorDesc *mat = nullptr, *row = nullptr;
  aclDataBuffer *bx = nullptr, *by = nullptr, *bw = nullptr, *bsum = nullptr, *bprod = nullptr;
  if (with_ops) {
    for (void** p : {&x, &y, &sum, &prod}) CHECK(aclrtMalloc(p, tbytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&w, wbytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(x, tbytes, hx.data(), tbytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(y, tbytes, hy.data(), tbytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(w, wbytes, hw.data(), wbytes, ACL_MEMCPY_HOST_TO_DEVICE));
    mat = aclCreateTensorDesc(ACL_FLOAT, 2, mat_dims, ACL_FORMAT_ND);
    row = aclCreateTensorDesc(ACL_FLOAT, 2, row_dims, ACL_FORMAT_ND);
    bx = aclCreateDataBuffer(x, tbytes);
    by = aclCreateDataBuffer(y, tbytes);
    bw = aclCreateDataBuffer(w, wbytes);
    bsum = aclCreateDataBuffer(sum, tbytes);
    bprod = aclCreateDataBuffer(prod, tbytes);
  }

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
    if (with_ops) {
      const aclTensorDesc* add_in[] = {mat, mat};
      const aclTensorDesc* mul_in[] = {mat, row};
      const aclTensorDesc* out[] = {mat};
      aclDataBuffer* add_buf[] = {bx, by};
      aclDataBuffer* mul_buf[] = {bx, bw};
      aclDataBuffer* sum_buf[] = {bsum};
      aclDataBuffer* prod_buf[] = {bprod};
      CHECK(aclopExecuteV2("Add", 2, const_cast<aclTensorDesc**>(add_in), add_buf, 1,
                           const_cast<aclTensorDesc**>(out), sum_buf, nullptr, a));
      CHECK(aclopExecuteV2("Mul", 2, const_cast<aclTensorDesc**>(mul_in), mul_buf, 1,
                           const_cast<aclTensorDesc**>(out), prod_buf, nullptr, b));
    }
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
  if (with_ops) {
    CHECK(aclrtMemcpy(hsum.data(), tbytes, sum, tbytes, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtMemcpy(hprod.data(), tbytes, prod, tbytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < n; ++i) {
      const float want_sum = hx[i] + hy[i], want_prod = hx[i] * hw[i % static_cast<size_t>(cols)];
      if (std::fabs(hsum[i] - want_sum) > 1e-5f * (1 + std::fabs(want_sum)) ||
          std::fabs(hprod[i] - want_prod) > 1e-5f * (1 + std::fabs(want_prod))) {
        std::fprintf(stderr, "operator result mismatch at %zu\n", i);
        return 2;
      }
    }
    for (aclDataBuffer* buf : {bx, by, bw, bsum, bprod}) CHECK(aclDestroyDataBuffer(buf));
    aclDestroyTensorDesc(mat);
    aclDestroyTensorDesc(row);
    for (void* p : {x, y, w, sum, prod}) CHECK(aclrtFree(p));
  }
  CHECK(aclprofRangeStop(range));
  aclprofDestroyStamp(range_stamp);
  CHECK(aclrtFree(src));
  CHECK(aclrtFree(fill));
  CHECK(aclrtFree(dst));
  CHECK(aclrtDestroyEvent(ev));
  CHECK(aclrtDestroyStream(a));
  CHECK(aclrtDestroyStream(b));
  if (prof_config != nullptr) {
    CHECK(aclprofStop(prof_config));
    CHECK(aclprofDestroyConfig(prof_config));
    CHECK(aclprofFinalize());
  }
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  std::printf("two_streams: %d rounds of %zu bytes OK\n", rounds, bytes);
  return 0;
}
