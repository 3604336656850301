// Helpers of the aclrtc tests: the compiler of the source tree, and a program compiled from a string.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"

namespace rtc_test {

// aclrtc runs $NPURT_ASCC; the tests use the source tree's unless the environment names another.
inline void UseSourceTreeCompiler() {
  setenv("NPURT_ASCC", NPURT_TEST_ASCC, 0);
  setenv("PYTHONDONTWRITEBYTECODE", "1", 0);
}

inline std::string CompileLog(aclrtcProg prog) {
  size_t size = 0;
  if (aclrtcGetCompileLogSize(prog, &size) != ACL_SUCCESS || size == 0) return "";
  std::string log(size, '\0');
  if (aclrtcGetCompileLog(prog, log.data()) != ACL_SUCCESS) return "";
  log.resize(size - 1);
  return log;
}

}  // namespace rtc_test
