// Entry points: CBLAS (ops/acl_cblas.h). Every call is the built-in GEMM operator (a, b, c, alpha, beta
// -> c) found in or added to the op compile cache, so repeated shapes never recompile. GEMV is GEMM
// with N = 1. alpha/beta have C's data type and may live in host or device memory: device values are
// read when the operation runs, host values are copied at the call.
#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "acl/ops/acl_cblas.h"
#include "api/api_common.h"
#include "api/op_common.h"
#include "core/memory/memory_ops.h"
#include "ops/compile_cache.h"

using npurt::Err;
using npurt::Status;

namespace {

struct GemmShape {
  aclTransType ta, tb, tc;
  int m, n, k;
  aclDataType da, db, dc;
};

Status CheckTrans(aclTransType t, const char* name) {
  if (t == ACL_TRANS_N || t == ACL_TRANS_T) return Status::Ok();
  if (t == ACL_TRANS_NZ || t == ACL_TRANS_NZ_T) {
    return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{}: FRACTAL_NZ layouts (ACL_TRANS_NZ*) are not supported; use "
               "ACL_TRANS_N or ACL_TRANS_T on ND matrices", name);
  }
  return Err(ACL_ERROR_INVALID_PARAM, "{} {} is not an aclTransType", name, static_cast<int>(t));
}

Status CheckLd(int ld, int packed, const char* name) {
  if (ld == -1 || ld == packed) return Status::Ok();
  if (ld < packed) return Err(ACL_ERROR_INVALID_PARAM, "{} {} is smaller than the row length {}", name, ld, packed);
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{} {}: only packed matrices are supported (pass -1 or {})", name, ld,
             packed);
}

Status CheckShape(const GemmShape& g, aclComputeType type) {
  NPURT_RETURN_IF_ERROR(CheckTrans(g.ta, "transA"));
  NPURT_RETURN_IF_ERROR(CheckTrans(g.tb, "transB"));
  NPURT_RETURN_IF_ERROR(CheckTrans(g.tc, "transC"));
  if (g.m <= 0 || g.n <= 0 || g.k <= 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "m {}, n {} and k {} must be positive", g.m, g.n, g.k);
  }
  if (type != ACL_COMPUTE_HIGH_PRECISION && type != ACL_COMPUTE_LOW_PRECISION) {
    return Err(ACL_ERROR_INVALID_PARAM, "computeType {} is not an aclComputeType", static_cast<int>(type));
  }
  return Status::Ok();
}

int32_t ScalarType(aclDataType c) { return c; }

npurt::StatusOr<npurt::ops::CompiledOpRef> CompileGemm(const GemmShape& g) {
  npurt::ops::OpCall call;
  call.type = "GEMM";
  auto mat = [](aclDataType dt, bool t, int64_t rows, int64_t cols) {
    return npurt::TensorSpec{dt, ACL_FORMAT_ND, t ? std::vector<int64_t>{cols, rows} : std::vector<int64_t>{rows, cols}};
  };
  const npurt::TensorSpec c = mat(g.dc, g.tc == ACL_TRANS_T, g.m, g.n);
  const npurt::TensorSpec scalar{ScalarType(g.dc), ACL_FORMAT_ND, {}};
  call.inputs = {mat(g.da, g.ta == ACL_TRANS_T, g.m, g.k), mat(g.db, g.tb == ACL_TRANS_T, g.k, g.n), c, scalar, scalar};
  call.requested = {c};
  npurt::AttrMap attrs;
  attrs["transpose_a"] = g.ta == ACL_TRANS_T;
  attrs["transpose_b"] = g.tb == ACL_TRANS_T;
  attrs["transpose_c"] = g.tc == ACL_TRANS_T;
  call.attrs = &attrs;
  return npurt::ops::CompileCache::Get().GetOrCompile(call);
}

// Binds a scalar: device memory is read at run time, host memory is copied now.
Status BindScalar(const void* p, size_t bytes, npurt::core::Stream* s, const char* name, npurt::ops::BoundBuffers* b,
                  size_t index) {
  if (p == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", name);
  auto span = npurt::core::ResolveSpan(p, bytes, name);
  if (!span.ok()) return std::move(span).status();
  if (span->device != nullptr) {
    NPURT_RETURN_IF_ERROR(npurt::ops::CheckDeviceRange(p, bytes, s, name));
    b->inputs[index] = p;
    return Status::Ok();
  }
  const auto* bytes_p = static_cast<const uint8_t*>(p);
  b->owned.emplace_back(bytes_p, bytes_p + bytes);
  b->inputs[index] = b->owned.back().data();
  return Status::Ok();
}

Status Gemm(const GemmShape& g, const void* alpha, const void* a, int lda, const void* b, int ldb, const void* beta,
            void* c, int ldc, aclComputeType type, aclrtStream stream) {
  NPURT_RETURN_IF_ERROR(CheckShape(g, type));
  NPURT_RETURN_IF_ERROR(CheckLd(lda, g.ta == ACL_TRANS_T ? g.m : g.k, "lda"));
  NPURT_RETURN_IF_ERROR(CheckLd(ldb, g.tb == ACL_TRANS_T ? g.k : g.n, "ldb"));
  NPURT_RETURN_IF_ERROR(CheckLd(ldc, g.tc == ACL_TRANS_T ? g.m : g.n, "ldc"));
  auto s = npurt::api::ResolveStream(stream);
  if (!s.ok()) return std::move(s).status();
  auto op = CompileGemm(g);
  if (!op.ok()) return std::move(op).status();
  const auto& spec = op.value()->inputs;
  npurt::ops::BoundBuffers bound;
  bound.inputs.resize(5);
  bound.owned.reserve(2);
  const char* names[] = {"matrixA", "matrixB", "matrixC"};
  const void* ptrs[] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    if (ptrs[i] == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", names[i]);
    NPURT_RETURN_IF_ERROR(npurt::ops::CheckDeviceRange(ptrs[i], spec[i].bytes(), s.value(), names[i]));
    bound.inputs[i] = ptrs[i];
  }
  const size_t es = npurt::DTypeSize(spec[3].dtype);
  NPURT_RETURN_IF_ERROR(BindScalar(alpha, es, s.value(), "alpha", &bound, 3));
  NPURT_RETURN_IF_ERROR(BindScalar(beta, es, s.value(), "beta", &bound, 4));
  bound.outputs = {c};
  return npurt::ops::Launch(std::move(op.value()), std::move(bound), s.value());
}

Status CheckInc(int inc, const char* name) {
  if (inc == -1 || inc == 1) return Status::Ok();
  return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{} {}: only contiguous vectors are supported (pass -1 or 1)", name, inc);
}

aclError CreateGemmHandle(const char* fn, const GemmShape& g, aclComputeType type, aclopHandle** handle) {
  NPURT_API_NOT_NULL(handle);
  NPURT_API_CHECK(CheckShape(g, type));
  auto op = CompileGemm(g);
  if (!op.ok()) return npurt::api::Report(fn, op.status());
  auto h = npurt::api::NewOpHandle(std::move(op.value()));
  if (!h.ok()) return npurt::api::Report(fn, h.status());
  *handle = h.value();
  return ACL_SUCCESS;
}

}  // namespace

aclError aclblasGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                       const void* alpha, const void* matrixA, int lda, aclDataType dataTypeA, const void* matrixB,
                       int ldb, aclDataType dataTypeB, const void* beta, void* matrixC, int ldc,
                       aclDataType dataTypeC, aclComputeType type, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  const GemmShape g{transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC};
  NPURT_API_CHECK(Gemm(g, alpha, matrixA, lda, matrixB, ldb, beta, matrixC, ldc, type, stream));
  return ACL_SUCCESS;
}

aclError aclblasCreateHandleForGemmEx(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                      int k, aclDataType dataTypeA, aclDataType dataTypeB, aclDataType dataTypeC,
                                      aclComputeType type, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  return CreateGemmHandle(__func__, {transA, transB, transC, m, n, k, dataTypeA, dataTypeB, dataTypeC}, type, handle);
}

aclError aclblasHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                      const aclFloat16* alpha, const aclFloat16* matrixA, int lda, const aclFloat16* matrixB, int ldb,
                      const aclFloat16* beta, aclFloat16* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  const GemmShape g{transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16};
  NPURT_API_CHECK(Gemm(g, alpha, matrixA, lda, matrixB, ldb, beta, matrixC, ldc, type, stream));
  return ACL_SUCCESS;
}

aclError aclblasCreateHandleForHgemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                                     aclComputeType type, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  return CreateGemmHandle(__func__, {transA, transB, transC, m, n, k, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16}, type,
                          handle);
}

aclError aclblasS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n, int k,
                       const int32_t* alpha, const int8_t* matrixA, int lda, const int8_t* matrixB, int ldb,
                       const int32_t* beta, int32_t* matrixC, int ldc, aclComputeType type, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  const GemmShape g{transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32};
  NPURT_API_CHECK(Gemm(g, alpha, matrixA, lda, matrixB, ldb, beta, matrixC, ldc, type, stream));
  return ACL_SUCCESS;
}

aclError aclblasCreateHandleForS8gemm(aclTransType transA, aclTransType transB, aclTransType transC, int m, int n,
                                      int k, aclComputeType type, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  return CreateGemmHandle(__func__, {transA, transB, transC, m, n, k, ACL_INT8, ACL_INT8, ACL_INT32}, type, handle);
}

aclError aclblasGemvEx(aclTransType transA, int m, int n, const void* alpha, const void* a, int lda,
                       aclDataType dataTypeA, const void* x, int incx, aclDataType dataTypeX, const void* beta, void* y,
                       int incy, aclDataType dataTypeY, aclComputeType type, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckInc(incx, "incx"));
  NPURT_API_CHECK(CheckInc(incy, "incy"));
  const GemmShape g{transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, dataTypeA, dataTypeX, dataTypeY};
  NPURT_API_CHECK(Gemm(g, alpha, a, lda, x, -1, beta, y, -1, type, stream));
  return ACL_SUCCESS;
}

aclError aclblasCreateHandleForGemvEx(aclTransType transA, int m, int n, aclDataType dataTypeA, aclDataType dataTypeX,
                                      aclDataType dataTypeY, aclComputeType type, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  return CreateGemmHandle(__func__, {transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, dataTypeA, dataTypeX, dataTypeY}, type,
                          handle);
}

aclError aclblasHgemv(aclTransType transA, int m, int n, const aclFloat16* alpha, const aclFloat16* a, int lda,
                      const aclFloat16* x, int incx, const aclFloat16* beta, aclFloat16* y, int incy,
                      aclComputeType type, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckInc(incx, "incx"));
  NPURT_API_CHECK(CheckInc(incy, "incy"));
  const GemmShape g{transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16};
  NPURT_API_CHECK(Gemm(g, alpha, a, lda, x, -1, beta, y, -1, type, stream));
  return ACL_SUCCESS;
}

aclError aclblasCreateHandleForHgemv(aclTransType transA, int m, int n, aclComputeType type, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  return CreateGemmHandle(__func__, {transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
                          type, handle);
}

aclError aclblasS8gemv(aclTransType transA, int m, int n, const int32_t* alpha, const int8_t* a, int lda,
                       const int8_t* x, int incx, const int32_t* beta, int32_t* y, int incy, aclComputeType type,
                       aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(CheckInc(incx, "incx"));
  NPURT_API_CHECK(CheckInc(incy, "incy"));
  const GemmShape g{transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, ACL_INT8, ACL_INT8, ACL_INT32};
  NPURT_API_CHECK(Gemm(g, alpha, a, lda, x, -1, beta, y, -1, type, stream));
  return ACL_SUCCESS;
}

aclError aclblasCreateHandleForS8gemv(aclTransType transA, int m, int n, aclComputeType type, aclopHandle** handle) {
  NPURT_HANDLE_SCOPE();
  return CreateGemmHandle(__func__, {transA, ACL_TRANS_N, ACL_TRANS_N, m, 1, n, ACL_INT8, ACL_INT8, ACL_INT32}, type,
                          handle);
}
