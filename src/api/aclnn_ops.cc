// Entry points: the aclnn operators (aclnnop/aclnn_<op>.h). Each GetWorkspaceSize maps the aclnn
// arguments onto one built-in operator (compiled through the op compile cache) and returns an
// executor; each execute function launches it. Scalars become host-owned one-element inputs converted
// to the tensor's data type.
#include <cmath>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_erf.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_log_softmax.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_maximum.h"
#include "aclnnop/aclnn_mean.h"
#include "aclnnop/aclnn_minimum.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_pow_tensor_tensor.h"
#include "aclnnop/aclnn_reciprocal.h"
#include "aclnnop/aclnn_reduce_sum.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_rsqrt.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_softmax.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_tanh.h"
#include "api/aclnn_common.h"
#include "api/api_common.h"

using npurt::Err;
using npurt::Status;
using namespace npurt::api::nn;  // NOLINT: this file is the aclnn surface

namespace {

#define NN_CHECK(expr)                                                           \
  do {                                                                           \
    ::npurt::Status nn_st_ = (expr);                                             \
    if (!nn_st_.ok()) return ::npurt::api::Report(fn, nn_st_);                   \
  } while (0)


aclnnStatus Binary(const char* fn, const char* type, const aclTensor* self, const aclTensor* other,
                   const aclScalar* scalar_other, const aclScalar* alpha, aclTensor* out, uint64_t* ws,
                   aclOpExecutor** ex) {
  Arg a, b, o;
  NN_CHECK(TensorArg(self, "self", &a));
  if (other != nullptr || scalar_other == nullptr) {
    NN_CHECK(TensorArg(other, "other", &b));
  } else {
    NN_CHECK(ScalarArg(scalar_other, "other", a.spec.dtype, &b));
  }
  NN_CHECK(TensorArg(out, "out", &o));
  npurt::AttrMap attrs;
  if (alpha != nullptr) {
    const Scalar* s = Scalar::From(alpha);
    if (s == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "alpha is not a live aclScalar"));
    const double v = s->AsDouble();
    if (v != 1.0) attrs["alpha"] = static_cast<float>(v);
  }
  return Prepare(fn, type, {std::move(a), std::move(b)}, {std::move(o)}, std::move(attrs), ws, ex);
}

aclnnStatus Unary(const char* fn, const char* type, const aclTensor* self, aclTensor* out,
                  npurt::AttrMap attrs, uint64_t* ws, aclOpExecutor** ex) {
  Arg a, o;
  NN_CHECK(TensorArg(self, "self", &a));
  NN_CHECK(TensorArg(out, "out", &o));
  return Prepare(fn, type, {std::move(a)}, {std::move(o)}, std::move(attrs), ws, ex);
}

}  // namespace

// -------------------------------------------------------------------------------------------- binary
aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Add", self, other, nullptr, alpha, out, workspaceSize, executor);
}
aclnnStatus aclnnAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnAddsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  if (other == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "other is a null pointer"));
  return Binary(__func__, "Add", self, nullptr, other, alpha, out, workspaceSize, executor);
}
aclnnStatus aclnnAdds(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceAddGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, const aclScalar* alpha,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Add", selfRef, other, nullptr, alpha, selfRef, workspaceSize, executor);
}
aclnnStatus aclnnInplaceAdd(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor* self, const aclTensor* other, const aclScalar* alpha,
                                     aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Sub", self, other, nullptr, alpha, out, workspaceSize, executor);
}
aclnnStatus aclnnSub(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSubsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, const aclScalar* alpha,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  if (other == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "other is a null pointer"));
  return Binary(__func__, "Sub", self, nullptr, other, alpha, out, workspaceSize, executor);
}
aclnnStatus aclnnSubs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMulGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Mul", self, other, nullptr, nullptr, out, workspaceSize, executor);
}
aclnnStatus aclnnMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMulsGetWorkspaceSize(const aclTensor* self, const aclScalar* other, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  if (other == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "other is a null pointer"));
  return Binary(__func__, "Mul", self, nullptr, other, nullptr, out, workspaceSize, executor);
}
aclnnStatus aclnnMuls(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceMulGetWorkspaceSize(aclTensor* selfRef, const aclTensor* other, uint64_t* workspaceSize,
                                            aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Mul", selfRef, other, nullptr, nullptr, selfRef, workspaceSize, executor);
}
aclnnStatus aclnnInplaceMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnDivGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Div", self, other, nullptr, nullptr, out, workspaceSize, executor);
}
aclnnStatus aclnnDiv(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMaximumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Maximum", self, other, nullptr, nullptr, out, workspaceSize, executor);
}
aclnnStatus aclnnMaximum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMinimumGetWorkspaceSize(const aclTensor* self, const aclTensor* other, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Minimum", self, other, nullptr, nullptr, out, workspaceSize, executor);
}
aclnnStatus aclnnMinimum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent, aclTensor* out,
                                                 uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Binary(__func__, "Pow", self, exponent, nullptr, nullptr, out, workspaceSize, executor);
}
aclnnStatus aclnnPowTensorTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

// --------------------------------------------------------------------------------------------- unary

aclnnStatus aclnnAbsGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Abs", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnAbs(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnNegGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Neg", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnNeg(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnExpGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Exp", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnExp(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Log", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnLog(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSqrtGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Sqrt", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnSqrt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnRsqrtGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Rsqrt", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnRsqrt(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnReciprocalGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Reciprocal", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnReciprocal(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Relu", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnRelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Sigmoid", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnSigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnTanhGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Tanh", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnTanh(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnErfGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Erf", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnErf(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                  aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Unary(__func__, "Gelu", self, out, {}, workspaceSize, executor);
}
aclnnStatus aclnnGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}


aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* self, int64_t approximate, aclTensor* out,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  if (approximate != 0 && approximate != 1) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "approximate {} must be 0 (none) or 1 (tanh)",
                                            approximate));
  }
  npurt::AttrMap attrs;
  attrs["approximate"] = std::string(approximate == 1 ? "tanh" : "none");
  return Unary(__func__, "Gelu", self, out, std::move(attrs), workspaceSize, executor);
}
aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out, uint64_t* workspaceSize,
                                         aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  npurt::AttrMap attrs;
  attrs["axis"] = dim;
  return Unary(__func__, "Softmax", self, out, std::move(attrs), workspaceSize, executor);
}
aclnnStatus aclnnSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim, aclTensor* out,
                                            uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  npurt::AttrMap attrs;
  attrs["axis"] = dim;
  return Unary(__func__, "LogSoftmax", self, out, std::move(attrs), workspaceSize, executor);
}
aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor* self, const aclDataType dtype, aclTensor* out,
                                      uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  npurt::AttrMap attrs;
  attrs["dst_type"] = npurt::DataTypeValue{dtype};
  return Unary(__func__, "Cast", self, out, std::move(attrs), workspaceSize, executor);
}
aclnnStatus aclnnCast(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, aclTensor* out,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  const char* fn = __func__;
  auto perm = IntArray(dims, "dims");
  NN_CHECK(perm.status());
  npurt::AttrMap attrs;
  attrs["perm"] = perm.value();
  return Unary(fn, "Transpose", self, out, std::move(attrs), workspaceSize, executor);
}
aclnnStatus aclnnPermute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

// ------------------------------------------------------------------------------------------- matmul
namespace {
aclnnStatus MatmulLike(const char* fn, const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cube,
                       int want_rank, uint64_t* ws, aclOpExecutor** ex) {
  (void)cube;  // the cube math type (fp16/hf32 shortcuts) does not change npurt's arithmetic
  Arg a, b, o;
  NN_CHECK(TensorArg(self, "self", &a));
  NN_CHECK(TensorArg(mat2, "mat2", &b));
  NN_CHECK(TensorArg(out, "out", &o));
  if (want_rank != 0 && (a.spec.rank() != static_cast<size_t>(want_rank) || b.spec.rank() != static_cast<size_t>(want_rank))) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "self {} and mat2 {} must be {}-D",
                                      npurt::DimsString(a.spec.dims), npurt::DimsString(b.spec.dims), want_rank));
  }
  if (a.spec.rank() < 2 || b.spec.rank() < 2) {
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "1-D matmul operands are not supported; "
                                      "reshape them to [1, K] / [K, 1]"));
  }
  const char* type = a.spec.rank() == 2 && b.spec.rank() == 2 ? "MatMul" : "BatchMatMul";
  return Prepare(fn, type, {std::move(a), std::move(b)}, {std::move(o)}, {}, ws, ex);
}
}  // namespace

aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                        int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return MatmulLike(__func__, self, mat2, out, cubeMathType, 0, workspaceSize, executor);
}
aclnnStatus aclnnMatmul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMmGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out, int8_t cubeMathType,
                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return MatmulLike(__func__, self, mat2, out, cubeMathType, 2, workspaceSize, executor);
}
aclnnStatus aclnnMm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnBatchMatMulGetWorkspaceSize(const aclTensor* self, const aclTensor* mat2, aclTensor* out,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return MatmulLike(__func__, self, mat2, out, cubeMathType, 3, workspaceSize, executor);
}
aclnnStatus aclnnBatchMatMul(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

// ------------------------------------------------------------------------------------ normalization
aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor* input, const aclIntArray* normalizedShape,
                                           const aclTensor* weightOptional, const aclTensor* biasOptional, double eps,
                                           aclTensor* out, aclTensor* meanOutOptional, aclTensor* rstdOutOptional,
                                           uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  const char* fn = __func__;
  Arg x, o;
  NN_CHECK(TensorArg(input, "input", &x));
  NN_CHECK(TensorArg(out, "out", &o));
  auto shape = IntArray(normalizedShape, "normalizedShape");
  NN_CHECK(shape.status());
  const auto& ns = shape.value();
  if (ns.empty() || ns.size() > x.spec.rank() ||
      !std::equal(ns.begin(), ns.end(), x.spec.dims.end() - static_cast<std::ptrdiff_t>(ns.size()))) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "normalizedShape {} must be the trailing dims of input {}",
                                      npurt::DimsString(ns), npurt::DimsString(x.spec.dims)));
  }
  Arg w, b;
  if (weightOptional != nullptr) {
    NN_CHECK(TensorArg(weightOptional, "weight", &w));
  } else {
    w = HostArg(x.spec.dtype, ns, 1.0);
  }
  if (biasOptional != nullptr) {
    NN_CHECK(TensorArg(biasOptional, "bias", &b));
  } else {
    b = HostArg(x.spec.dtype, ns, 0.0);
  }
  if (rstdOutOptional != nullptr && meanOutOptional == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "rstdOut without meanOut is not supported"));
  }
  std::vector<Arg> outs;
  outs.push_back(std::move(o));
  if (meanOutOptional != nullptr) {
    Arg m;
    NN_CHECK(TensorArg(meanOutOptional, "meanOut", &m));
    outs.push_back(std::move(m));
  }
  if (rstdOutOptional != nullptr) {
    Arg r;
    NN_CHECK(TensorArg(rstdOutOptional, "rstdOut", &r));
    outs.push_back(std::move(r));
  }
  npurt::AttrMap attrs;
  attrs["begin_norm_axis"] = static_cast<int64_t>(x.spec.rank() - ns.size());
  attrs["epsilon"] = static_cast<float>(eps);
  attrs["output_rstd"] = true;
  return Prepare(fn, "LayerNorm", {std::move(x), std::move(w), std::move(b)}, std::move(outs), std::move(attrs),
                 workspaceSize, executor);
}
aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

// ---------------------------------------------------------------------------------------- reductions
namespace {
aclnnStatus Reduce(const char* fn, const char* type, const aclTensor* self, const aclIntArray* dims, bool keep,
                   aclDataType dtype, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
  Arg a, o;
  NN_CHECK(TensorArg(self, "self", &a));
  NN_CHECK(TensorArg(out, "out", &o));
  auto axes = IntArray(dims, "dims");
  NN_CHECK(axes.status());
  if (dtype != a.spec.dtype) {
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "reducing {} into {} is not supported; the "
                                      "result type must be the input's", npurt::DTypeName(a.spec.dtype),
                                      npurt::DTypeName(dtype)));
  }
  npurt::AttrMap attrs;
  attrs["axes"] = axes.value();
  attrs["keep_dims"] = keep;
  return Prepare(fn, type, {std::move(a)}, {std::move(o)}, std::move(attrs), ws, ex);
}
}  // namespace

aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor* self, const aclIntArray* dims, bool keepDims,
                                           aclDataType dtype, aclTensor* out, uint64_t* workspaceSize,
                                           aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Reduce(__func__, "ReduceSum", self, dims, keepDims, dtype, out, workspaceSize, executor);
}
aclnnStatus aclnnReduceSum(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor* self, const aclIntArray* dim, bool keepDim, aclDataType dtype,
                                      aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  return Reduce(__func__, "ReduceMean", self, dim, keepDim, dtype, out, workspaceSize, executor);
}
aclnnStatus aclnnMean(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}

// --------------------------------------------------------------------------------------- convolution
aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias,
                                             const aclIntArray* stride, const aclIntArray* padding,
                                             const aclIntArray* dilation, bool transposed,
                                             const aclIntArray* outputPadding, const int64_t groups, aclTensor* output,
                                             int8_t cubeMathType, uint64_t* workspaceSize, aclOpExecutor** executor) {
  NPURT_HANDLE_SCOPE();
  const char* fn = __func__;
  (void)outputPadding;
  (void)cubeMathType;
  if (transposed) {
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "transposed convolution is not supported"));
  }
  Arg x, w, o;
  NN_CHECK(TensorArg(input, "input", &x));
  NN_CHECK(TensorArg(weight, "weight", &w));
  NN_CHECK(TensorArg(output, "output", &o));
  if (x.spec.rank() != 4) {
    return npurt::api::Report(fn, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "only 2-D convolution (4-D NCHW input) is "
                                      "supported, input is {}", npurt::DimsString(x.spec.dims)));
  }
  x.spec.format = o.spec.format = w.spec.format = ACL_FORMAT_NCHW;
  auto s = IntArray(stride, "stride");
  NN_CHECK(s.status());
  auto p = IntArray(padding, "padding");
  NN_CHECK(p.status());
  auto d = IntArray(dilation, "dilation");
  NN_CHECK(d.status());
  auto two = [](const std::vector<int64_t>& v) { return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : v; };
  const auto sv = two(s.value()), pv = two(p.value()), dv = two(d.value());
  if (sv.size() != 2 || pv.size() != 2 || dv.size() != 2) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "stride, padding and dilation need 1 or 2 values"));
  }
  npurt::AttrMap attrs;
  attrs["strides"] = sv;
  attrs["pads"] = std::vector<int64_t>{pv[0], pv[0], pv[1], pv[1]};
  attrs["dilations"] = dv;
  attrs["groups"] = groups;
  attrs["data_format"] = std::string("NCHW");
  std::vector<Arg> ins;
  ins.push_back(std::move(x));
  ins.push_back(std::move(w));
  if (bias != nullptr) {
    Arg b;
    NN_CHECK(TensorArg(bias, "bias", &b));
    ins.push_back(std::move(b));
  }
  return Prepare(fn, "Conv2D", std::move(ins), {std::move(o)}, std::move(attrs), workspaceSize, executor);
}
aclnnStatus aclnnConvolution(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
  NPURT_HANDLE_SCOPE();
  return Run(__func__, workspace, workspaceSize, executor, stream);
}
