// hccl_allreduce: how a data-parallel training step averages its gradients with HCCL.
//
// The root (device 0) makes a root info with HcclGetRootInfo; every device's thread joins the communicator
// with HcclCommInitRootInfo (the bytes are shared in memory here; processes would send them to each other).
// Each rank "computes" its gradients on a compute stream (a host-to-device copy of its own values stands in
// for the backward pass), records an event there, and its communication stream waits for that event before
// HcclAllReduce sums the gradients of every rank. The ranks then divide by the rank count on the host and
// check the average: rank r's gradient i is (r + 1) * (i + 1) / 4, so the average is (n + 1) / 2 * (i + 1) / 4.
#include <acl/acl.h>
#include <hccl/hccl.h>

#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

#define CHECK_ACL(expr)                                                                          \
  do {                                                                                           \
    aclError e_ = (expr);                                                                        \
    if (e_ != ACL_SUCCESS) {                                                                     \
      std::fprintf(stderr, "%s failed: %d %s\n", #expr, static_cast<int>(e_), aclGetRecentErrMsg()); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)
#define CHECK_HCCL(expr)                                                                                  \
  do {                                                                                                    \
    HcclResult r_ = (expr);                                                                               \
    if (r_ != HCCL_SUCCESS) {                                                                             \
      std::fprintf(stderr, "%s failed: %s (%d): %s\n", #expr, HcclGetErrorString(r_), static_cast<int>(r_), \
                   aclGetRecentErrMsg());                                                                 \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

namespace {

constexpr size_t kCount = 1 << 16;  // gradients per rank

bool RunRank(uint32_t rank, uint32_t n, const HcclRootInfo* root) {
  CHECK_ACL(aclrtSetDevice(static_cast<int32_t>(rank)));
  HcclComm comm = nullptr;
  CHECK_HCCL(HcclCommInitRootInfo(n, root, rank, &comm));
  aclrtStream compute = nullptr, comm_stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&compute));
  CHECK_ACL(aclrtCreateStream(&comm_stream));
  aclrtEvent grads_ready = nullptr;
  CHECK_ACL(aclrtCreateEvent(&grads_ready));

  std::vector<float> host(kCount);
  for (size_t i = 0; i < kCount; ++i) host[i] = static_cast<float>((rank + 1) * (i % 1024 + 1)) / 4.0f;
  void* grads = nullptr;
  CHECK_ACL(aclrtMalloc(&grads, kCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  // "Backward": the gradients appear on the compute stream.
  CHECK_ACL(aclrtMemcpyAsync(grads, kCount * sizeof(float), host.data(), kCount * sizeof(float),
                             ACL_MEMCPY_HOST_TO_DEVICE, compute));
  CHECK_ACL(aclrtRecordEvent(grads_ready, compute));
  // The communication stream starts the sum only once they are there; in place, as frameworks do.
  CHECK_ACL(aclrtStreamWaitEvent(comm_stream, grads_ready));
  CHECK_HCCL(HcclAllReduce(grads, grads, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, comm_stream));
  CHECK_ACL(aclrtSynchronizeStream(comm_stream));

  CHECK_ACL(aclrtMemcpy(host.data(), kCount * sizeof(float), grads, kCount * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));
  size_t wrong = 0;
  for (size_t i = 0; i < kCount; ++i) {
    const float average = host[i] / static_cast<float>(n);
    const float expected = static_cast<float>(n + 1) / 2.0f * static_cast<float>(i % 1024 + 1) / 4.0f;
    if (average != expected) ++wrong;
  }
  std::printf("rank %u of %u: average gradient[0..2] = %.3f %.3f %.3f, %zu of %zu wrong\n", rank, n,
              host[0] / static_cast<float>(n), host[1] / static_cast<float>(n), host[2] / static_cast<float>(n), wrong, kCount);

  CHECK_ACL(aclrtFree(grads));
  CHECK_ACL(aclrtDestroyEvent(grads_ready));
  CHECK_HCCL(HcclCommDestroy(comm));
  CHECK_ACL(aclrtDestroyStream(compute));
  CHECK_ACL(aclrtDestroyStream(comm_stream));
  CHECK_ACL(aclrtResetDevice(static_cast<int32_t>(rank)));
  return wrong == 0;
}

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  uint32_t n = 0;
  CHECK_ACL(aclrtGetDeviceCount(&n));
  if (n < 2) {
    std::fprintf(stderr, "this example needs at least 2 devices (NPURT_SIM_DEVICE_COUNT)\n");
    return 1;
  }
  CHECK_ACL(aclrtSetDevice(0));
  HcclRootInfo root;
  CHECK_HCCL(HcclGetRootInfo(&root));
  std::vector<std::thread> ranks;
  std::vector<char> ok(n, 0);
  for (uint32_t r = 0; r < n; ++r) ranks.emplace_back([&, r] { ok[r] = RunRank(r, n, &root); });
  for (auto& t : ranks) t.join();
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  for (char good : ok) {
    if (!good) return 1;
  }
  std::printf("gradients averaged over %u ranks\n", n);
  return 0;
}
