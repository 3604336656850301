// Operator tasks in the profile: what op_summary shows for a task of aclop*, aclnn* or CBLAS (its op
// type, name, shapes, data types and formats) instead of the bare task kind.
#pragma once

#include <cstdint>

#include "dfx/profiler.h"
#include "ops/op_compiler.h"

namespace npurt::ops {

// Records the description of `op`'s run as the task whose id is *task_id (reserving an id if it is 0). Call
// it only while task time is collected (the inline guard below); `name` may be null (then the op type).
void TagOpTaskSlow(const CompiledOpRef& op, const char* name, uint32_t block_num, uint32_t* task_id);

inline void TagOpTask(const CompiledOpRef& op, const char* name, uint32_t block_num, uint32_t* task_id) {
  if (dfx::ProfOn(dfx::prof_bits::kAnyTaskTime)) [[unlikely]] TagOpTaskSlow(op, name, block_num, task_id);
}

// "<op type>|<block num>|<inputs>|<outputs>" (the kOpInfo detail string of dfx/prof_record.h).
std::string OpProfileDetail(const CompiledOp& op, uint32_t block_num);

}  // namespace npurt::ops
