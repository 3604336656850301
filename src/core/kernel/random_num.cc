// aclrtRandomNumAsync: random numbers generated on the device by the driver's random built-in
// (hal/builtins.h; Philox4x32-10, the counter-based generator the hardware uses: a 64-bit key from the seed
// and the 128-bit counter at randomCounterAddr, which the task advances by the blocks it consumed, so
// consecutive tasks continue the sequence and equal seed and counter reproduce it). This file validates
// the call; parameters given by address are read when the task executes.
#include <cstring>

#include "acl/acl_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/kernel/builtin_dispatch.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"
#include "base/dtype.h"

namespace npurt::core {
namespace {

hal::RandomParam ToHal(const aclrtRandomParaInfo& p) {
  hal::RandomParam h;
  std::memcpy(h.value_or_addr, p.valueOrAddr, sizeof h.value_or_addr);
  h.size = p.size;
  h.is_addr = p.isAddr != 0;
  return h;
}

uint64_t ParamBits(const aclrtRandomParaInfo& p) { return hal::RandomParamBits(ToHal(p)); }

static_assert(static_cast<int>(hal::RandomFunction::kDropoutBitmask) == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK &&
              static_cast<int>(hal::RandomFunction::kUniform) == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS &&
              static_cast<int>(hal::RandomFunction::kNormal) == ACL_RT_RANDOM_NUM_FUNC_TYPE_NORMAL_DIS &&
              static_cast<int>(hal::RandomFunction::kTruncatedNormal) ==
                  ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS);

bool IsFloatType(int32_t dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16; }

Status CheckParam(const aclrtRandomParaInfo& p, const char* what) {
  if (p.size == 0 || p.size > 8) return Err(ACL_ERROR_INVALID_PARAM, "{}.size {} is not 1..8 bytes", what, p.size);
  if (p.isAddr == 0) return Status::Ok();
  const void* addr = nullptr;
  std::memcpy(&addr, p.valueOrAddr, sizeof addr);
  return ResolveSpan(addr, p.size, what).status();
}

}  // namespace

Status SubmitRandomNum(Stream* stream, const aclrtRandomNumTaskInfo& info) {
  const int32_t type = RawEnum(info.randomNumFuncParaInfo.funcType);  // any value may come in (RawEnum)
  const int32_t dtype = info.dataType;
  if (type < ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK || type > ACL_RT_RANDOM_NUM_FUNC_TYPE_TRUNCATED_NORMAL_DIS) {
    return Err(ACL_ERROR_INVALID_PARAM, "random function type {} is not an aclrtRandomNumFuncType", type);
  }
  const bool uniform = type == ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  const auto function = static_cast<hal::RandomFunction>(type);  // the same numbering
  if (!(IsFloatType(dtype) || (uniform && hal::RandomElementSize(dtype) != 0))) {
    return Err(ACL_ERROR_INVALID_PARAM, "data type {} is not supported by this random function (float, float16, bf16{})",
               dtype, uniform ? ", int32, int64, uint32, uint64" : "");
  }
  if (info.randomResultAddr == nullptr || info.randomCounterAddr == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "randomResultAddr and randomCounterAddr must not be null");
  }
  NPURT_RETURN_IF_ERROR(ResolveSpan(info.randomCounterAddr, 16, "randomCounterAddr").status());
  NPURT_RETURN_IF_ERROR(CheckParam(info.randomSeed, "randomSeed"));
  NPURT_RETURN_IF_ERROR(CheckParam(info.randomNum, "randomNum"));
  const auto& p = info.randomNumFuncParaInfo.paramInfo;
  if (type == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    NPURT_RETURN_IF_ERROR(CheckParam(p.dropoutBitmaskInfo.dropoutRation, "dropoutRation"));
  } else if (uniform) {
    NPURT_RETURN_IF_ERROR(CheckParam(p.uniformDisInfo.min, "min"));
    NPURT_RETURN_IF_ERROR(CheckParam(p.uniformDisInfo.max, "max"));
    if (p.uniformDisInfo.min.isAddr == 0 && p.uniformDisInfo.max.isAddr == 0 &&
        !hal::RandomUniformRangeValid(dtype, ParamBits(p.uniformDisInfo.min), ParamBits(p.uniformDisInfo.max))) {
      return Err(ACL_ERROR_INVALID_PARAM, "uniform range is empty: max must be greater than min");
    }
  } else {
    NPURT_RETURN_IF_ERROR(CheckParam(p.normalDisInfo.mean, "mean"));
    NPURT_RETURN_IF_ERROR(CheckParam(p.normalDisInfo.stddev, "stddev"));
  }
  if (info.randomNum.isAddr == 0) {
    const uint64_t n = ParamBits(info.randomNum);
    if (n == 0) return Err(ACL_ERROR_INVALID_PARAM, "randomNum is 0");
    NPURT_RETURN_IF_ERROR(
        ResolveSpan(info.randomResultAddr, hal::RandomResultBytes(function, dtype, n), "randomResultAddr").status());
  }
  hal::RandomParams params;
  params.function = function;
  params.dtype = dtype;
  params.result = info.randomResultAddr;
  params.counter = info.randomCounterAddr;
  params.seed = ToHal(info.randomSeed);
  params.count = ToHal(info.randomNum);
  if (type == ACL_RT_RANDOM_NUM_FUNC_TYPE_DROPOUT_BITMASK) {
    params.a = ToHal(p.dropoutBitmaskInfo.dropoutRation);
  } else if (uniform) {
    params.a = ToHal(p.uniformDisInfo.min);
    params.b = ToHal(p.uniformDisInfo.max);
  } else {
    params.a = ToHal(p.normalDisInfo.mean);
    params.b = ToHal(p.normalDisInfo.stddev);
  }
  auto* r = NewBuiltinRun(params, "aclrtRandomNumAsync");
  r->dispatch.check_memory = &KnownMemoryOperand;
  return SubmitBuiltin(stream, hal::Builtin::kRandom, r);
}

}  // namespace npurt::core
