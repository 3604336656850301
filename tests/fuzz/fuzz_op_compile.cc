// Fuzz target: operator attributes, tensor descriptors and the operator compiler.
//
// The input drives a sequence of API calls (FuzzedDataProvider): an attribute set built with
// aclopCreateAttr and any of the aclopSetAttr* setters (known attribute names or random ones, random
// values and list lengths); tensor descriptors from aclCreateTensorDesc with random data types, formats
// and dims (unknown -1 / -2, zero, huge), some with storage formats, names, placements or host
// constants; then aclopCompile, aclopCompileAndExecute(V2) or aclopExecuteV2 of an operator type (a
// registered one, usually) on data buffers whose sizes match the descriptors or not. Every failing call
// must leave an aclGetRecentErrMsg message; whatever runs is synchronised before the next input.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "fuzz_util.h"

namespace {

using npurt_fuzz::Check;

constexpr const char* kOpTypes[] = {
    "Abs", "Add", "AddV2", "AvgPool", "BatchMatMul", "BatchMatMulV2", "BatchNorm", "Cast", "Clip", "ClipByValue",
    "Concat", "ConcatD", "ConcatV2", "Conv2D", "Div", "Erf", "Exp", "Fill", "GEMM", "Gather", "GatherV2",
    "GatherV2D", "Gelu", "GlobalAveragePool", "LayerNorm", "Log", "LogSoftmax", "LogSoftmaxV2", "MatMul",
    "MatMulV2", "MaxPool", "Maximum", "Minimum", "Mul", "Neg", "Pow", "RealDiv", "Reciprocal", "ReduceMax",
    "ReduceMaxD", "ReduceMean", "ReduceMeanD", "ReduceSum", "ReduceSumD", "Relu", "Relu6", "Reshape", "Rsqrt",
    "Sigmoid", "Slice", "SliceD", "Softmax", "SoftmaxV2", "Split", "SplitD", "Sqrt", "Sub", "Tanh", "Transpose",
    "TransposeD"};
constexpr const char* kAttrNames[] = {
    "axis", "axes", "strides", "shape", "pads", "offsets", "epsilon", "dst_type", "alpha", "value", "transpose_x2",
    "transpose_x1", "transpose_c", "transpose_b", "transpose_a", "split_dim", "size", "perm", "padding",
    "output_rstd", "num_split", "min", "max", "ksize", "keep_dims", "is_training", "groups", "gamma", "exclusive",
    "dilations", "data_format", "concat_dim", "beta", "begin_params_axis", "begin_norm_axis", "begin",
    "approximate", "adj_x2", "adj_x1", "N"};
constexpr aclDataType kTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,  ACL_INT32, ACL_UINT8,  ACL_INT16,
                                  ACL_INT64, ACL_UINT64,  ACL_DOUBLE, ACL_BOOL, ACL_STRING, ACL_BF16,
                                  ACL_INT4,  ACL_DT_UNDEFINED, ACL_COMPLEX64, ACL_UINT32};
constexpr aclFormat kFormats[] = {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_NC1HWC0,
                                  ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NCDHW, ACL_FORMAT_UNDEFINED,
                                  ACL_FORMAT_HWCN};
constexpr aclDataType kFloatTypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16};

constexpr int kMaxTensors = 6;
constexpr size_t kBufBytes = 64 * 1024;  // every device buffer: descriptors may ask for more, or less

aclrtStream g_stream = nullptr;
void* g_dev[kMaxTensors] = {};
std::vector<uint8_t> g_const_bytes;

int64_t PickDim(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange<int>(0, 15)) {
    case 0: return -1;
    case 1: return -2;
    case 2: return 0;
    case 3: return in.ConsumeIntegral<int64_t>();
    case 4: return std::numeric_limits<int64_t>::max();
    default: return in.ConsumeIntegralInRange<int64_t>(1, 8);
  }
}

std::vector<int64_t> PickInts(FuzzedDataProvider& in, int max_len) {
  std::vector<int64_t> v(in.ConsumeIntegralInRange<int>(0, max_len));
  for (auto& x : v) x = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-4, 8) : in.ConsumeIntegral<int64_t>();
  return v;
}

std::string PickName(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange<int>(0, 9) == 0) return in.ConsumeRandomLengthString(16);
  return in.PickValueInArray(kAttrNames);
}

aclopAttr* MakeAttr(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange<int>(0, 4) == 0) return nullptr;
  aclopAttr* attr = aclopCreateAttr();
  if (attr == nullptr) std::abort();
  const int n = in.ConsumeIntegralInRange<int>(0, 6);
  for (int i = 0; i < n; ++i) {
    const std::string name = PickName(in);
    switch (in.ConsumeIntegralInRange<int>(0, 11)) {
      case 0: Check(aclopSetAttrBool(attr, name.c_str(), in.ConsumeIntegral<uint8_t>()), "aclopSetAttrBool"); break;
      case 1: {
        const int64_t v = in.ConsumeBool() ? in.ConsumeIntegralInRange<int64_t>(-4, 8) : in.ConsumeIntegral<int64_t>();
        Check(aclopSetAttrInt(attr, name.c_str(), v), "aclopSetAttrInt");
        break;
      }
      case 2: {
        float f;
        uint32_t bits = in.ConsumeIntegral<uint32_t>();
        std::memcpy(&f, &bits, sizeof f);  // NaN, Inf and denormals included
        if (in.ConsumeBool()) f = in.ConsumeFloatingPointInRange<float>(-4.0f, 4.0f);
        Check(aclopSetAttrFloat(attr, name.c_str(), f), "aclopSetAttrFloat");
        break;
      }
      case 3: {
        const std::string s = in.ConsumeRandomLengthString(16);
        Check(aclopSetAttrString(attr, name.c_str(), s.c_str()), "aclopSetAttrString");
        break;
      }
      case 4:
        Check(aclopSetAttrDataType(attr, name.c_str(), in.PickValueInArray(kTypes)), "aclopSetAttrDataType");
        break;
      case 5: {
        std::vector<int64_t> v = PickInts(in, 6);
        Check(aclopSetAttrListInt(attr, name.c_str(), static_cast<int>(v.size()), v.data()), "aclopSetAttrListInt");
        break;
      }
      case 6: {
        std::vector<float> v(in.ConsumeIntegralInRange<int>(0, 6));
        for (float& f : v) f = in.ConsumeFloatingPointInRange<float>(-8.0f, 8.0f);
        Check(aclopSetAttrListFloat(attr, name.c_str(), static_cast<int>(v.size()), v.data()), "aclopSetAttrListFloat");
        break;
      }
      case 7: {
        std::vector<uint8_t> v = in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(0, 6));
        Check(aclopSetAttrListBool(attr, name.c_str(), static_cast<int>(v.size()), v.data()), "aclopSetAttrListBool");
        break;
      }
      case 8: {
        std::vector<std::string> s(in.ConsumeIntegralInRange<int>(0, 4));
        std::vector<const char*> p;
        for (auto& x : s) {
          x = in.ConsumeRandomLengthString(8);
          p.push_back(x.c_str());
        }
        Check(aclopSetAttrListString(attr, name.c_str(), static_cast<int>(p.size()), p.data()), "aclopSetAttrListString");
        break;
      }
      case 9: {
        std::vector<aclDataType> v(in.ConsumeIntegralInRange<int>(0, 4));
        for (auto& t : v) t = in.PickValueInArray(kTypes);
        Check(aclopSetAttrListDataType(attr, name.c_str(), static_cast<int>(v.size()), v.data()),
              "aclopSetAttrListDataType");
        break;
      }
      case 10: {
        std::vector<std::vector<int64_t>> lists(in.ConsumeIntegralInRange<int>(0, 3));
        std::vector<int> counts;
        std::vector<const int64_t*> ptrs;
        for (auto& l : lists) {
          l = PickInts(in, 4);
          counts.push_back(static_cast<int>(l.size()));
          ptrs.push_back(l.data());
        }
        Check(aclopSetAttrListListInt(attr, name.c_str(), static_cast<int>(lists.size()), counts.data(), ptrs.data()),
              "aclopSetAttrListListInt");
        break;
      }
      case 11:
        // The empty name and a null value are bad input the setters must refuse.
        Check(aclopSetAttrInt(attr, in.ConsumeBool() ? "" : nullptr, 1), "aclopSetAttrInt(bad name)");
        break;
    }
  }
  return attr;
}

aclTensorDesc* MakeDesc(FuzzedDataProvider& in) {
  // Plain ints, as a C caller passes them: any value may reach the API (the harness never loads an
  // out-of-range value from an enum-typed object itself, which would be undefined in C++).
  const int type = in.ConsumeIntegralInRange<int>(0, 5) != 0 ? in.PickValueInArray(kFloatTypes)
                   : in.ConsumeBool()                        ? in.PickValueInArray(kTypes)
                                                             : in.ConsumeIntegral<int8_t>();
  const int format = in.ConsumeIntegralInRange<int>(0, 3) != 0 ? ACL_FORMAT_ND
                     : in.ConsumeBool()                         ? in.PickValueInArray(kFormats)
                                                                : in.ConsumeIntegral<int8_t>();
  std::vector<int64_t> dims(in.ConsumeIntegralInRange<int>(0, 5));
  for (auto& d : dims) d = PickDim(in);
  aclTensorDesc* d = aclCreateTensorDesc(static_cast<aclDataType>(type), static_cast<int>(dims.size()), dims.data(),
                                         static_cast<aclFormat>(format));
  if (d == nullptr) {
    Check(ACL_ERROR_INVALID_PARAM, "aclCreateTensorDesc (returned null)");
    return nullptr;
  }
  // Descriptor queries must answer for whatever was created.
  (void)aclGetTensorDescSize(d);
  (void)aclGetTensorDescElementCount(d);
  // (ACL_UNKNOWN_RANK, a huge count, for dims {-2}: at most 8 queries, one past the end included.)
  for (size_t i = 0; i <= aclGetTensorDescNumDims(d) && i < 8; ++i) {
    int64_t v = 0;
    (void)aclGetTensorDescDimV2(d, i, &v);
  }
  (void)aclGetRecentErrMsg();
  switch (in.ConsumeIntegralInRange<int>(0, 7)) {
    case 0: Check(aclSetTensorStorageFormat(d, in.PickValueInArray(kFormats)), "aclSetTensorStorageFormat"); break;
    case 1: {
      std::vector<int64_t> s(in.ConsumeIntegralInRange<int>(0, 5));
      for (auto& x : s) x = PickDim(in);
      Check(aclSetTensorStorageShape(d, static_cast<int>(s.size()), s.data()), "aclSetTensorStorageShape");
      break;
    }
    case 2: {
      const std::string name = in.ConsumeRandomLengthString(16);
      aclSetTensorDescName(d, name.c_str());
      break;
    }
    case 3:
    {
      const int place = in.ConsumeIntegralInRange<int>(-1, 3);
      Check(aclSetTensorPlaceMent(d, static_cast<aclMemType>(place)), "aclSetTensorPlaceMent");
    }
      break;
    case 4: {
      const size_t len = in.ConsumeIntegralInRange<size_t>(0, g_const_bytes.size());
      Check(aclSetTensorConst(d, len == 0 && in.ConsumeBool() ? nullptr : g_const_bytes.data(), len),
            "aclSetTensorConst");
      break;
    }
    case 5: {
      aclTensorDesc* t = nullptr;
      if (Check(aclTransTensorDescFormat(d, in.PickValueInArray(kFormats), &t), "aclTransTensorDescFormat") ==
          ACL_SUCCESS) {
        aclDestroyTensorDesc(t);
      }
      break;
    }
    default: break;
  }
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)npurt_fuzz::ScratchDir();
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  if (aclrtCreateStream(&g_stream) != ACL_SUCCESS) std::abort();
  // Random, non-zero contents: small floats and ints both read as ordinary values.
  std::vector<uint8_t> host(kBufBytes);
  uint32_t x = 0x9e3779b9u;
  for (size_t i = 0; i < host.size(); ++i) {
    x = x * 1664525u + 1013904223u;
    host[i] = static_cast<uint8_t>((x >> 24) | 1u);
  }
  for (void*& p : g_dev) {
    if (aclrtMalloc(&p, kBufBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::abort();
    if (aclrtMemcpy(p, kBufBytes, host.data(), kBufBytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) std::abort();
  }
  g_const_bytes.assign(host.begin(), host.begin() + 256);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string op = in.ConsumeIntegralInRange<int>(0, 15) != 0 ? std::string(in.PickValueInArray(kOpTypes))
                                                                      : in.ConsumeRandomLengthString(24);
  aclopAttr* attr = MakeAttr(in);
  const int num_in = in.ConsumeIntegralInRange<int>(0, 4);
  const int num_out = in.ConsumeIntegralInRange<int>(0, kMaxTensors - num_in > 2 ? 2 : kMaxTensors - num_in);
  std::vector<aclTensorDesc*> desc(static_cast<size_t>(num_in + num_out));
  std::vector<aclDataBuffer*> buf(desc.size());
  // Often every tensor is alike (what element-wise operators want), so inputs reach the kernels.
  const bool alike = in.ConsumeBool();
  for (size_t i = 0; i < desc.size(); ++i) {
    if (alike && i > 0 && desc[0] != nullptr) {
      const size_t rank = aclGetTensorDescNumDims(desc[0]);
      std::vector<int64_t> dims(rank <= 8 ? rank : 1, -2);  // ACL_UNKNOWN_RANK: dims {-2}
      for (size_t k = 0; rank <= 8 && k < dims.size(); ++k) (void)aclGetTensorDescDimV2(desc[0], k, &dims[k]);
      desc[i] = aclCreateTensorDesc(aclGetTensorDescType(desc[0]), static_cast<int>(dims.size()), dims.data(),
                                    aclGetTensorDescFormat(desc[0]));
      (void)aclGetRecentErrMsg();
    } else {
      desc[i] = MakeDesc(in);
    }
    // The buffer: the descriptor's size (when it fits), a random size, or CANN's null placeholder.
    size_t bytes = desc[i] != nullptr ? aclGetTensorDescSize(desc[i]) : 0;
    (void)aclGetRecentErrMsg();
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0: bytes = in.ConsumeIntegralInRange<size_t>(0, kBufBytes); break;
      case 1: bytes = 0; break;
      default: break;
    }
    void* ptr = in.ConsumeIntegralInRange<int>(0, 11) == 0 ? nullptr : g_dev[i];
    buf[i] = aclCreateDataBuffer(ptr, ptr == nullptr ? 0 : std::min(bytes, kBufBytes));
    (void)aclGetRecentErrMsg();
  }
  aclTensorDesc** in_desc = desc.data();
  aclTensorDesc** out_desc = desc.data() + num_in;
  aclDataBuffer** in_buf = buf.data();
  aclDataBuffer** out_buf = buf.data() + num_in;
  const int engine_raw = in.ConsumeIntegralInRange<int>(0, 9) == 0 ? in.ConsumeIntegralInRange<int>(-1, 4)
                                                                    : static_cast<int>(ACL_ENGINE_SYS);
  const int flag_raw = in.ConsumeIntegralInRange<int>(0, 9) == 0 ? in.ConsumeIntegralInRange<int>(-1, 3)
                                                                  : static_cast<int>(ACL_COMPILE_SYS);
  // Passed as C callers pass them: converted at the call, never stored in an enum-typed object.
  const auto engine = [engine_raw] { return static_cast<aclopEngineType>(engine_raw); };
  const auto flag = [flag_raw] { return static_cast<aclopCompileType>(flag_raw); };
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      Check(aclopCompile(op.c_str(), num_in, in_desc, num_out, out_desc, attr, engine(), flag(), nullptr), "aclopCompile");
      break;
    case 1:
      Check(aclopCompileAndExecute(op.c_str(), num_in, in_desc, in_buf, num_out, out_desc, out_buf, attr, engine(), flag(),
                                   nullptr, g_stream),
            "aclopCompileAndExecute");
      break;
    case 2:
      Check(aclopCompileAndExecuteV2(op.c_str(), num_in, in_desc, in_buf, num_out, out_desc, out_buf, attr, engine(),
                                     flag(), nullptr, g_stream),
            "aclopCompileAndExecuteV2");
      break;
    case 3:
      Check(aclopExecuteV2(op.c_str(), num_in, in_desc, in_buf, num_out, out_desc, out_buf, attr, g_stream),
            "aclopExecuteV2");
      break;
  }
  // A kernel that failed on the executor reports it here; a stream in error is replaced, so the next
  // input starts on a healthy one.
  if (Check(aclrtSynchronizeStream(g_stream), "aclrtSynchronizeStream") != ACL_SUCCESS) {
    (void)aclrtDestroyStreamForce(g_stream);
    (void)aclGetRecentErrMsg();
    if (aclrtCreateStream(&g_stream) != ACL_SUCCESS) std::abort();
  }
  for (aclDataBuffer* b : buf) {
    if (b != nullptr) Check(aclDestroyDataBuffer(b), "aclDestroyDataBuffer");
  }
  for (aclTensorDesc* d : desc) aclDestroyTensorDesc(d);
  aclopDestroyAttr(attr);
  (void)aclGetRecentErrMsg();
  return 0;
}
