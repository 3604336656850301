// cblas_gemm: C = alpha * A * B + beta * C through aclblasGemmEx (fp16 inputs, fp32 output, alpha and
// beta in device memory as the CANN sample passes them), checked against a host reference.
#include <cmath>
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "acl/ops/acl_cblas.h"

#define CHECK(expr)                                                                                  \
  do {                                                                                               \
    aclError rc_ = (expr);                                                                           \
    if (rc_ != ACL_SUCCESS) {                                                                        \
      std::printf("%s failed: %d (%s)\n", #expr, rc_, aclGetRecentErrMsg());                         \
      return 1;                                                                                      \
    }                                                                                                \
  } while (0)

int main() {
  const int m = 64, n = 48, k = 80;
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));

  std::vector<aclFloat16> ha(m * k), hb(k * n);
  std::vector<float> hc(m * n), out(m * n);
  for (int i = 0; i < m * k; ++i) ha[i] = aclFloatToFloat16(static_cast<float>((i * 7) % 11) / 11.0f - 0.5f);
  for (int i = 0; i < k * n; ++i) hb[i] = aclFloatToFloat16(static_cast<float>((i * 5) % 13) / 13.0f - 0.5f);
  for (int i = 0; i < m * n; ++i) hc[i] = static_cast<float>(i % 9) * 0.1f;
  const float alpha = 2.0f, beta = 0.5f;

  void *a, *b, *c, *dalpha, *dbeta;
  CHECK(aclrtMalloc(&a, ha.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&b, hb.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&c, hc.size() * 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dalpha, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMalloc(&dbeta, 4, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(a, ha.size() * 2, ha.data(), ha.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(b, hb.size() * 2, hb.data(), hb.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(c, hc.size() * 4, hc.data(), hc.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dalpha, 4, &alpha, 4, ACL_MEMCPY_HOST_TO_DEVICE));
  CHECK(aclrtMemcpy(dbeta, 4, &beta, 4, ACL_MEMCPY_HOST_TO_DEVICE));

  CHECK(aclblasGemmEx(ACL_TRANS_N, ACL_TRANS_N, ACL_TRANS_N, m, n, k, dalpha, a, -1, ACL_FLOAT16, b, -1, ACL_FLOAT16,
                      dbeta, c, -1, ACL_FLOAT, ACL_COMPUTE_HIGH_PRECISION, stream));
  CHECK(aclrtSynchronizeStream(stream));
  CHECK(aclrtMemcpy(out.data(), out.size() * 4, c, out.size() * 4, ACL_MEMCPY_DEVICE_TO_HOST));

  int bad = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int p = 0; p < k; ++p) s += aclFloat16ToFloat(ha[i * k + p]) * aclFloat16ToFloat(hb[p * n + j]);
      const double want = alpha * s + beta * hc[i * n + j];
      if (std::fabs(out[i * n + j] - want) > 1e-3 * (1 + std::fabs(want))) ++bad;
    }
  std::printf("aclblasGemmEx %dx%dx%d: %s\n", m, n, k, bad == 0 ? "ok" : "MISMATCH");

  for (void* p : {a, b, c, dalpha, dbeta}) CHECK(aclrtFree(p));
  CHECK(aclrtDestroyStream(stream));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return bad == 0 ? 0 : 1;
}
