#include "core/dump/tensor_dump.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "base/dtype.h"
#include "core/device.h"
#include "core/dump/dump_writer.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core::dump {
namespace {

// numpy's dtype string of an ACL data type; "" = not representable (dumped as raw bytes, '|u1').
const char* NpyDescr(int32_t dtype) {
  switch (dtype) {
    case ACL_FLOAT: return "<f4";
    case ACL_FLOAT16: return "<f2";
    case ACL_INT8: return "|i1";
    case ACL_INT32: return "<i4";
    case ACL_UINT8: return "|u1";
    case ACL_INT16: return "<i2";
    case ACL_UINT16: return "<u2";
    case ACL_UINT32: return "<u4";
    case ACL_INT64: return "<i8";
    case ACL_UINT64: return "<u8";
    case ACL_DOUBLE: return "<f8";
    case ACL_BOOL: return "|b1";
    case ACL_COMPLEX64: return "<c8";
    case ACL_COMPLEX128: return "<c16";
    case ACL_BF16: return "<u2";  // numpy has no bfloat16: the raw bits (ml_dtypes.bfloat16 views them)
    default: return "";
  }
}

// The .npy (format 1.0) header of a C-order array.
std::string NpyHeader(const TensorSpec& spec) {
  const char* descr = NpyDescr(spec.dtype);
  std::string shape;
  if (descr[0] == '\0') {
    descr = "|u1";
    shape = fmt::format("({},)", spec.bytes());
  } else {
    shape = "(";
    for (int64_t d : spec.dims) shape += fmt::format("{}, ", d);
    if (spec.dims.size() > 1) shape.resize(shape.size() - 2);
    if (spec.dims.size() == 1) shape.pop_back();
    shape += ")";
  }
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}", descr, shape);
  // magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64.
  const size_t total = (10 + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string head("\x93NUMPY\x01\x00", 8);
  head += static_cast<char>(dict.size() & 0xff);
  head += static_cast<char>(dict.size() >> 8);
  return head + dict;
}

struct Stats {
  double max = -std::numeric_limits<double>::infinity();
  double min = std::numeric_limits<double>::infinity();
  double sum = 0, sq = 0;
  uint64_t count = 0, finite = 0, nan = 0, neg_inf = 0, pos_inf = 0;
};

Stats Compute(const void* data, const TensorSpec& spec) {
  Stats s;
  if (data == nullptr || !(IsFloating(spec.dtype) || IsInteger(spec.dtype) || spec.dtype == ACL_BOOL)) return s;
  const size_t n = static_cast<size_t>(spec.numel());
  for (size_t i = 0; i < n; ++i) {
    const double v = LoadAsDouble(data, spec.dtype, i);
    ++s.count;
    if (std::isnan(v)) {
      ++s.nan;
    } else if (std::isinf(v)) {
      ++(v < 0 ? s.neg_inf : s.pos_inf);
    } else {
      ++s.finite;
      s.max = std::max(s.max, v);
      s.min = std::min(s.min, v);
      s.sum += v;
      s.sq += v * v;
    }
  }
  return s;
}

std::string CsvHeader(uint32_t mask) {
  std::string h = "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,Data Size,Data Type,Format,Shape";
  if (mask & kMax) h += ",Max Value";
  if (mask & kMin) h += ",Min Value";
  if (mask & kAvg) h += ",Avg Value";
  if (mask & kL2Norm) h += ",L2Norm Value";
  h += ",Count";
  if (mask & kNan) h += ",Nan Count";
  if (mask & kNegInf) h += ",Negative Inf Count";
  if (mask & kPosInf) h += ",Positive Inf Count";
  return h + "\n";
}

std::string CsvRow(const TensorDumpPlan& plan, const char* kind, size_t slot, const void* data, const TensorSpec& spec) {
  const Stats s = Compute(data, spec);
  const uint32_t mask = plan.config->stat_mask;
  // "<type>.<name>.<task>.<stream>" → the first four columns, then the timestamp.
  std::string row = plan.base;
  for (char& c : row) c = c == '.' ? ',' : c;
  const std::string ts = plan.prefix.substr(plan.prefix.rfind('.') + 1);
  std::string shape = "[";
  for (size_t i = 0; i < spec.dims.size(); ++i) shape += fmt::format("{}{}", i ? " " : "", spec.dims[i]);
  shape += "]";
  row += fmt::format(",{},{},{},{},{},{},\"{}\"", ts, kind, slot, spec.bytes(), DTypeName(spec.dtype),
                     FormatName(spec.format), shape);
  auto value = [&](double v) { return s.finite == 0 ? std::string("nan") : fmt::format("{:.9g}", v); };
  if (mask & kMax) row += "," + value(s.max);
  if (mask & kMin) row += "," + value(s.min);
  if (mask & kAvg) row += "," + value(s.finite ? s.sum / static_cast<double>(s.finite) : 0.0);
  if (mask & kL2Norm) row += "," + value(std::sqrt(s.sq));
  row += fmt::format(",{}", s.count);
  if (mask & kNan) row += fmt::format(",{}", s.nan);
  if (mask & kNegInf) row += fmt::format(",{}", s.neg_inf);
  if (mask & kPosInf) row += fmt::format(",{}", s.pos_inf);
  return row + "\n";
}

void DumpTensor(TensorDumpPlan& plan, const char* kind, size_t slot, const void* data, const TensorSpec& spec) {
  // The stream is at this op, so the bytes are exactly what the kernel reads (inputs) or wrote (outputs).
  // They are read through the device (ReadMemory), which need not let the host address its memory.
  const size_t bytes = data != nullptr ? spec.bytes() : 0;
  plan.staging.resize(bytes);
  if (Status read = ReadMemory(data, bytes, plan.staging.data(), "tensor"); bytes != 0 && !read.ok()) {
    if (!plan.failed) NPURT_LOG_ERROR("DUMP", "cannot read {} {} of the operator: {}", kind, slot, read.message());
    plan.failed = true;
    return;
  }
  const void* host = bytes != 0 ? plan.staging.data() : nullptr;
  if (plan.config->stats) {
    plan.csv += CsvRow(plan, kind, slot, host, spec);
    return;
  }
  const std::string path = fmt::format("{}.{}.{}.npy", plan.prefix, kind, slot);
  if (!Emit(path, host, bytes, NpyHeader(spec)) && !plan.failed) {
    plan.failed = true;
    NPURT_LOG_ERROR("DUMP", "cannot write the operator dump file {}", path);
  }
}

}  // namespace

std::unique_ptr<TensorDumpPlan> PlanTensorDump(const std::string& type, const char* name, Stream* stream,
                                               uint32_t* task_id) {
  if ((Switches() & kTensors) == 0) return nullptr;
  if (name == nullptr || name[0] == '\0') name = type.c_str();
  std::shared_ptr<const Config> config = ActiveTensors();
  if (config == nullptr || !config->Wants(type, name)) return nullptr;
  auto plan = std::make_unique<TensorDumpPlan>();
  plan->config = std::move(config);
  *task_id = NextTaskId();
  plan->dir = fmt::format("{}/{}/{}", plan->config->path, plan->config->session, stream->device()->id());
  plan->base = fmt::format("{}.{}.{}.{}", type, name, *task_id, stream->id());
  return plan;
}

void DumpInputs(TensorDumpPlan& plan, const std::vector<TensorSpec>& specs, const void* const* data) {
  plan.prefix = fmt::format("{}/{}.{}", plan.dir, plan.base, TimeStamp());
  plan.csv.clear();
  plan.failed = false;
  if ((plan.config->mode & kInput) == 0) return;
  for (size_t i = 0; i < specs.size(); ++i) DumpTensor(plan, "input", i, data[i], specs[i]);
}

void DumpOutputs(TensorDumpPlan& plan, const std::vector<TensorSpec>& specs, const void* const* data, bool ran) {
  if (ran && (plan.config->mode & kOutput) != 0) {
    for (size_t i = 0; i < specs.size(); ++i) DumpTensor(plan, "output", i, data[i], specs[i]);
  }
  if (plan.config->stats && !plan.csv.empty()) {
    const std::string path = plan.prefix + ".csv";
    if (!Emit(path, plan.csv.data(), plan.csv.size(), CsvHeader(plan.config->stat_mask))) {
      NPURT_LOG_ERROR("DUMP", "cannot write the operator statistics file {}", path);
    }
  }
}

}  // namespace npurt::core::dump
