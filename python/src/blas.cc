// acl.blas: CBLAS (ops/acl_cblas.h). Matrices, vectors, alpha and beta are addresses (ints); enums (aclTransType,
// aclDataType, aclComputeType) are ints. The computing calls return the bare ret and release the GIL (they queue
// an operator, which can wait for room on the stream); the create_handle_for_* calls return (handle, ret), a
// handle for acl.op.execute_with_handle.
#include "acl/ops/acl_cblas.h"
#include "pyacl.h"

namespace pyacl {
namespace {

aclTransType Trans(int t) { return static_cast<aclTransType>(t); }
aclDataType DType(int t) { return static_cast<aclDataType>(t); }
aclComputeType Compute(int t) { return static_cast<aclComputeType>(t); }

void DefineGemv(py::module_& blas) {
  // CANN's pyACL passes incy where incx belongs; npurt passes incx.
  blas.def(
      "gemv_ex",
      [](int trans_a, int m, int n, Addr alpha, Addr a, int lda, int dtype_a, Addr x, int incx, int dtype_x, Addr beta,
         Addr y, int incy, int dtype_y, int type, Addr stream) {
        return aclblasGemvEx(Trans(trans_a), m, n, As<const void>(alpha), As<const void>(a), lda, DType(dtype_a),
                             As<const void>(x), incx, DType(dtype_x), As<const void>(beta), As<void>(y), incy,
                             DType(dtype_y), Compute(type), As<void>(stream));
      },
      ReleaseGil(), py::arg("trans_a"), py::arg("m"), py::arg("n"), py::arg("alpha"), py::arg("a"), py::arg("lda"),
      py::arg("data_type_a"), py::arg("x"), py::arg("incx"), py::arg("data_type_x"), py::arg("beta"), py::arg("y"),
      py::arg("incy"), py::arg("data_type_y"), py::arg("type"), py::arg("stream"));
  blas.def(
      "create_handle_for_gemv_ex",
      [](int trans_a, int m, int n, int dtype_a, int dtype_x, int dtype_y, int type) {
        aclopHandle* handle = nullptr;
        const aclError ret = aclblasCreateHandleForGemvEx(Trans(trans_a), m, n, DType(dtype_a), DType(dtype_x),
                                                          DType(dtype_y), Compute(type), &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("trans_a"), py::arg("m"), py::arg("n"), py::arg("data_type_a"), py::arg("data_type_x"),
      py::arg("data_type_y"), py::arg("type"));
  blas.def(
      "hgemv",
      [](int trans_a, int m, int n, Addr alpha, Addr a, int lda, Addr x, int incx, Addr beta, Addr y, int incy,
         int type, Addr stream) {
        return aclblasHgemv(Trans(trans_a), m, n, As<const aclFloat16>(alpha), As<const aclFloat16>(a), lda,
                            As<const aclFloat16>(x), incx, As<const aclFloat16>(beta), As<aclFloat16>(y), incy,
                            Compute(type), As<void>(stream));
      },
      ReleaseGil(), py::arg("trans_a"), py::arg("m"), py::arg("n"), py::arg("alpha"), py::arg("a"), py::arg("lda"),
      py::arg("x"), py::arg("incx"), py::arg("beta"), py::arg("y"), py::arg("incy"), py::arg("type"),
      py::arg("stream"));
  blas.def(
      "create_handle_for_hgemv",
      [](int trans_a, int m, int n, int type) {
        aclopHandle* handle = nullptr;
        const aclError ret = aclblasCreateHandleForHgemv(Trans(trans_a), m, n, Compute(type), &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("trans_a"), py::arg("m"), py::arg("n"), py::arg("type"));
  blas.def(
      "s8gemv",
      [](int trans_a, int m, int n, Addr alpha, Addr a, int lda, Addr x, int incx, Addr beta, Addr y, int incy,
         int type, Addr stream) {
        return aclblasS8gemv(Trans(trans_a), m, n, As<const int32_t>(alpha), As<const int8_t>(a), lda,
                             As<const int8_t>(x), incx, As<const int32_t>(beta), As<int32_t>(y), incy, Compute(type),
                             As<void>(stream));
      },
      ReleaseGil(), py::arg("trans_a"), py::arg("m"), py::arg("n"), py::arg("alpha"), py::arg("a"), py::arg("lda"),
      py::arg("x"), py::arg("incx"), py::arg("beta"), py::arg("y"), py::arg("incy"), py::arg("type"),
      py::arg("stream"));
  blas.def(
      "create_handle_for_s8gemv",
      [](int trans_a, int m, int n, int type) {
        aclopHandle* handle = nullptr;
        const aclError ret = aclblasCreateHandleForS8gemv(Trans(trans_a), m, n, Compute(type), &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("trans_a"), py::arg("m"), py::arg("n"), py::arg("type"));
}

void DefineGemm(py::module_& blas) {
  blas.def(
      "gemm_ex",
      [](int trans_a, int trans_b, int trans_c, int m, int n, int k, Addr alpha, Addr a, int lda, int dtype_a, Addr b,
         int ldb, int dtype_b, Addr beta, Addr c, int ldc, int dtype_c, int type, Addr stream) {
        return aclblasGemmEx(Trans(trans_a), Trans(trans_b), Trans(trans_c), m, n, k, As<const void>(alpha),
                             As<const void>(a), lda, DType(dtype_a), As<const void>(b), ldb, DType(dtype_b),
                             As<const void>(beta), As<void>(c), ldc, DType(dtype_c), Compute(type), As<void>(stream));
      },
      ReleaseGil(), py::arg("trans_a"), py::arg("trans_b"), py::arg("trans_c"), py::arg("m"), py::arg("n"),
      py::arg("k"), py::arg("alpha"), py::arg("matrix_a"), py::arg("lda"), py::arg("data_type_a"), py::arg("matrix_b"),
      py::arg("ldb"), py::arg("data_type_b"), py::arg("beta"), py::arg("matrix_c"), py::arg("ldc"),
      py::arg("data_type_c"), py::arg("type"), py::arg("stream"));
  blas.def(
      "create_handle_for_gemm_ex",
      [](int trans_a, int trans_b, int trans_c, int m, int n, int k, int dtype_a, int dtype_b, int dtype_c, int type) {
        aclopHandle* handle = nullptr;
        const aclError ret =
            aclblasCreateHandleForGemmEx(Trans(trans_a), Trans(trans_b), Trans(trans_c), m, n, k, DType(dtype_a),
                                         DType(dtype_b), DType(dtype_c), Compute(type), &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("trans_a"), py::arg("trans_b"), py::arg("trans_c"), py::arg("m"), py::arg("n"), py::arg("k"),
      py::arg("data_type_a"), py::arg("data_type_b"), py::arg("data_type_c"), py::arg("type"));
  blas.def(
      "hgemm",
      [](int trans_a, int trans_b, int trans_c, int m, int n, int k, Addr alpha, Addr a, int lda, Addr b, int ldb,
         Addr beta, Addr c, int ldc, int type, Addr stream) {
        return aclblasHgemm(Trans(trans_a), Trans(trans_b), Trans(trans_c), m, n, k, As<const aclFloat16>(alpha),
                            As<const aclFloat16>(a), lda, As<const aclFloat16>(b), ldb, As<const aclFloat16>(beta),
                            As<aclFloat16>(c), ldc, Compute(type), As<void>(stream));
      },
      ReleaseGil(), py::arg("trans_a"), py::arg("trans_b"), py::arg("trans_c"), py::arg("m"), py::arg("n"),
      py::arg("k"), py::arg("alpha"), py::arg("matrix_a"), py::arg("lda"), py::arg("matrix_b"), py::arg("ldb"),
      py::arg("beta"), py::arg("matrix_c"), py::arg("ldc"), py::arg("type"), py::arg("stream"));
  blas.def(
      "create_handle_for_hgemm",
      [](int trans_a, int trans_b, int trans_c, int m, int n, int k, int type) {
        aclopHandle* handle = nullptr;
        const aclError ret = aclblasCreateHandleForHgemm(Trans(trans_a), Trans(trans_b), Trans(trans_c), m, n, k,
                                                         Compute(type), &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("trans_a"), py::arg("trans_b"), py::arg("trans_c"), py::arg("m"), py::arg("n"), py::arg("k"),
      py::arg("type"));
  blas.def(
      "s8gemm",
      [](int trans_a, int trans_b, int trans_c, int m, int n, int k, Addr alpha, Addr a, int lda, Addr b, int ldb,
         Addr beta, Addr c, int ldc, int type, Addr stream) {
        return aclblasS8gemm(Trans(trans_a), Trans(trans_b), Trans(trans_c), m, n, k, As<const int32_t>(alpha),
                             As<const int8_t>(a), lda, As<const int8_t>(b), ldb, As<const int32_t>(beta),
                             As<int32_t>(c), ldc, Compute(type), As<void>(stream));
      },
      ReleaseGil(), py::arg("trans_a"), py::arg("trans_b"), py::arg("trans_c"), py::arg("m"), py::arg("n"),
      py::arg("k"), py::arg("alpha"), py::arg("matrix_a"), py::arg("lda"), py::arg("matrix_b"), py::arg("ldb"),
      py::arg("beta"), py::arg("matrix_c"), py::arg("ldc"), py::arg("type"), py::arg("stream"));
  blas.def(
      "create_handle_for_s8gemm",
      [](int trans_a, int trans_b, int trans_c, int m, int n, int k, int type) {
        aclopHandle* handle = nullptr;
        const aclError ret = aclblasCreateHandleForS8gemm(Trans(trans_a), Trans(trans_b), Trans(trans_c), m, n, k,
                                                          Compute(type), &handle);
        return WithRet(ret, ToInt(handle));
      },
      py::arg("trans_a"), py::arg("trans_b"), py::arg("trans_c"), py::arg("m"), py::arg("n"), py::arg("k"),
      py::arg("type"));
}

}  // namespace

void DefineBlas(py::module_& blas) {
  DefineGemv(blas);
  DefineGemm(blas);
}

}  // namespace pyacl
