// The objects behind the profiling API's opaque handles (acl/acl_prof.h). Private to src/api.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/prof_objects.h is private to the npurt runtime"
#endif

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_prof.h"
#include "api/handle_tags.h"
#include "base/handle.h"

namespace npurt::api {

struct ProfConfig final : HandleObject {
  ProfConfig() : HandleObject(handle_tags::kProfConfig) {}
  std::vector<uint32_t> devices;
  aclprofAicoreMetrics metrics = ACL_AICORE_NONE;
  uint64_t data_types = 0;
};

struct ProfStamp final : HandleObject {
  ProfStamp() : HandleObject(handle_tags::kProfStamp) {}
  std::string message;
};

struct ProfStepInfo final : HandleObject {
  ProfStepInfo() : HandleObject(handle_tags::kProfStepInfo) {}
  uint64_t index = 0;     // step number, advanced by each ACL_STEP_START
  bool started = false;
};

struct ProfSubscribeConfig final : HandleObject {
  ProfSubscribeConfig() : HandleObject(handle_tags::kProfSubscribeConfig) {}
  int8_t time_info = 0;
  aclprofAicoreMetrics metrics = ACL_AICORE_NONE;
  int fd = -1;
};

// One operator record as written to a subscriber's pipe and parsed by aclprofGetOp*: fixed size so a
// reader can split a read buffer into records.
struct ProfOpRecord {
  uint32_t magic;  // kProfOpMagic
  uint32_t model_id;
  uint32_t flag;   // aclprofSubscribeOpFlag
  uint32_t thread_id;
  uint64_t start_ns;
  uint64_t end_ns;
  char op_type[ACL_PROF_MAX_OP_TYPE_LEN];
  char op_name[ACL_PROF_MAX_OP_NAME_LEN];
  char thread_text[16];  // ACL_SUBSCRIBE_ATTRI_THREADID as text
};
constexpr uint32_t kProfOpMagic = 0x4f505231;  // "OPR1"

}  // namespace npurt::api
