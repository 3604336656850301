// The raw profiling record: one fixed-size, trivially copyable struct per event, appended to per-thread
// rings and written as-is to <PROF dir>/raw/records.bin. tools/msprof/msprof reads this layout (keep
// the two in step: "<BBHiIIQQQQ" little-endian, 48 bytes).
#pragma once

#include <cstdint>

namespace npurt::dfx {

enum class RecordType : uint8_t {
  kTask = 1,       // a device task ran: t0 start, t1 end; kind = the runtime's task kind (core/prof_tasks.cc
                   // names them); a = bytes or flag id, b = (code << 32) | low 32 bits of the flag value
  kSubmit = 2,     // the host submitted task `task_id`: t0 = submit time, tid = submitting thread
  kApi = 3,        // a host API call: t0..t1, a = string id of the function name
  kMark = 4,       // msproftx instant marker: t0, a = string id of the message, stream (or -1)
  kRange = 5,      // msproftx range (push/pop or start/stop): t0..t1, a = string id
  kMemory = 6,     // device memory in use after an allocation or free: t0, a = bytes in use, b = delta
  kTaskName = 7,   // names task `task_id` (kernels, operators): a = string id, b = a kernel's block count
  kStep = 8,       // aclprofGetStepTimestamp: t0, a = step index, b = tag (0 start, 1 end)
  kOpInfo = 9,     // an operator task `task_id` (aclop*, aclnn*, CBLAS): a = string id of its name, b = string
                   // id of "<op type>|<block num>|<inputs>|<outputs>", tensors ';'-separated, each
                   // "<aclDataType>:<aclFormat>:<dims, comma-separated>" (what op_summary shows)
  kOpCache = 10,   // an operator compile-cache event: kind 0 hit, 1 miss (t1 - t0 = the compile time), 2 an
                   // eviction; a = string id of the op type
};

struct Record {
  RecordType type;
  uint8_t kind;     // task kind for kTask/kSubmit
  uint16_t device;
  int32_t stream;   // runtime stream id, -1 for none
  uint32_t task_id;
  uint32_t tid;     // host thread (kernel tid) that recorded it
  uint64_t t0;      // CLOCK_MONOTONIC ns
  uint64_t t1;
  uint64_t a;
  uint64_t b;
};
static_assert(sizeof(Record) == 48, "tools/msprof parses 48-byte records");

}  // namespace npurt::dfx
