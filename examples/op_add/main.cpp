// op_add: the classic single-operator Add, twice: aclopExecuteV2 with the single-operator model that
// `atc --singleop=add_op.json --output=op_models` built (CMakeLists.txt runs it) loaded by aclopSetModelDir,
// and aclopCompileAndExecuteV2, on fp16 tensors, checked against a host reference.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"

#define CHECK(expr)                                                                                  \
  do {                                                                                               \
    aclError rc_ = (expr);                                                                           \
    if (rc_ != ACL_SUCCESS) {                                                                        \
      std::printf("%s failed: %d (%s)\n", #expr, rc_, aclGetRecentErrMsg());                         \
      return 1;                                                                                      \
    }                                                                                                \
  } while (0)

int main() {
  const int64_t dims[] = {8, 16};
  const size_t n = 8 * 16, bytes = n * sizeof(aclFloat16);
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  CHECK(aclopSetModelDir("op_models"));  // the Add model atc built: compiled here, before its first execution

  std::vector<aclFloat16> ha(n), hb(n), hc(n);
  for (size_t i = 0; i < n; ++i) {
    ha[i] = aclFloatToFloat16(0.25f * static_cast<float>(i % 13) - 1.0f);
    hb[i] = aclFloatToFloat16(0.5f * static_cast<float>(i % 7));
  }
  void *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK(aclrtMalloc(&a, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&b, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&c, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(a, bytes, ha.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(b, bytes, hb.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

  aclTensorDesc* in_desc[] = {aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND),
                              aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND)};
  aclTensorDesc* out_desc[] = {aclCreateTensorDesc(ACL_FLOAT16, 2, dims, ACL_FORMAT_ND)};
  aclDataBuffer* inputs[] = {aclCreateDataBuffer(a, bytes), aclCreateDataBuffer(b, bytes)};
  aclDataBuffer* outputs[] = {aclCreateDataBuffer(c, bytes)};
  aclopAttr* attr = aclopCreateAttr();

  int failures = 0;
  for (int variant = 0; variant < 2; ++variant) {
    CHECK(aclrtMemset(c, bytes, 0, bytes));
    if (variant == 0) {
      CHECK(aclopExecuteV2("Add", 2, in_desc, inputs, 1, out_desc, outputs, attr, stream));
    } else {
      CHECK(aclopCompileAndExecuteV2("Add", 2, in_desc, inputs, 1, out_desc, outputs, attr, ACL_ENGINE_SYS,
                                     ACL_COMPILE_SYS, nullptr, stream));
    }
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(hc.data(), bytes, c, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    for (size_t i = 0; i < n; ++i) {
      const float want = aclFloat16ToFloat(ha[i]) + aclFloat16ToFloat(hb[i]);
      if (std::fabs(aclFloat16ToFloat(hc[i]) - want) > 1e-3f * (1.0f + std::fabs(want))) ++failures;
    }
    std::printf("%s: %s\n", variant == 0 ? "aclopExecuteV2" : "aclopCompileAndExecuteV2",
                failures == 0 ? "ok" : "MISMATCH");
  }

  aclopDestroyAttr(attr);
  for (auto* d : in_desc) aclDestroyTensorDesc(d);
  aclDestroyTensorDesc(out_desc[0]);
  for (auto* buf : inputs) CHECK(aclDestroyDataBuffer(buf));
  CHECK(aclDestroyDataBuffer(outputs[0]));
  CHECK(aclrtFree(a));
  CHECK(aclrtFree(b));
  CHECK(aclrtFree(c));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return failures == 0 ? 0 : 1;
}
