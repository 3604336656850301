// aclnn_add: the two-phase aclnn API, as the CANN quick start uses it: aclCreateTensor / aclCreateScalar,
// aclnnAddGetWorkspaceSize (out = self + alpha * other), then aclnnAdd on a stream.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define CHECK(expr)                                                                                  \
  do {                                                                                               \
    int rc_ = (expr);                                                                                \
    if (rc_ != 0) {                                                                                  \
      std::printf("%s failed: %d (%s)\n", #expr, rc_, aclGetRecentErrMsg());                         \
      return 1;                                                                                      \
    }                                                                                                \
  } while (0)

static aclTensor* MakeTensor(const std::vector<int64_t>& shape, void* dev) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size() - 1; i > 0; --i) strides[i - 1] = shape[i] * strides[i];
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), dev);
}

int main() {
  const std::vector<int64_t> shape = {4, 2};
  const size_t n = 8, bytes = n * sizeof(float);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<float> hs(n), ho(n), out(n);
  for (size_t i = 0; i < n; ++i) {
    hs[i] = static_cast<float>(i);
    ho[i] = 1.0f + static_cast<float>(i) * 0.5f;
  }
  void *ds, *dother, *dout;
  CHECK(aclrtMalloc(&ds, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dother, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dout, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(ds, bytes, hs.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dother, bytes, ho.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclTensor* self = MakeTensor(shape, ds);
  aclTensor* other = MakeTensor(shape, dother);
  aclTensor* result = MakeTensor(shape, dout);
  float alpha_value = 1.2f;
  aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK(aclnnAddGetWorkspaceSize(self, other, alpha, result, &workspace_size, &executor));
  void* workspace = nullptr;
  if (workspace_size > 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclnnAdd(workspace, workspace_size, executor, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(out.data(), bytes, dout, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

  int bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const float want = hs[i] + alpha_value * ho[i];
    if (std::fabs(out[i] - want) > 1e-5f * (1 + std::fabs(want))) ++bad;
    std::printf("result[%zu] = %g\n", i, out[i]);
  }
  std::printf("aclnnAdd: %s\n", bad == 0 ? "ok" : "MISMATCH");

  aclDestroyTensor(self);
  aclDestroyTensor(other);
  aclDestroyTensor(result);
  aclDestroyScalar(alpha);
  if (workspace != nullptr) CHECK(aclrtFree(workspace));
  for (void* p : {ds, dother, dout}) CHECK(aclrtFree(p));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return bad == 0 ? 0 : 1;
}
