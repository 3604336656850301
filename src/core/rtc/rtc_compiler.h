// One run of the kernel compiler for aclrtcCompileProg: the program's source and headers written into a
// private temporary directory, the package's npurt-ascc run on them (--npurt-kernel-binary), the kernel
// binary and the kernel names read back, the directory removed.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "core/rtc/rtc_compiler.h is private to the npurt runtime"
#endif

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace npurt::core::rtc {

struct CompileInput {
  std::string file_name;  // the source's file name in diagnostics ("hello_world.asc")
  std::string source;
  std::vector<std::pair<std::string, std::string>> headers;  // (include name, text)
  std::vector<std::string> options;  // checked options for npurt-ascc (rtc_options.h)
  std::vector<std::pair<std::string, std::string>> instances;  // (kernel, template arguments)
};

struct CompileOutput {
  std::string log;  // the compiler's output, the temporary directory left out of its paths
  std::vector<char> binary;  // the kernel binary (empty if the compile failed)
  std::vector<std::string> kernels;  // the binary's kernel names (its table)
};

// Runs the compiler. The status is ACL_ERROR_RTC_COMPILATION when the source does not compile (out.log says
// why), ACL_ERROR_RTC_INVALID_INPUT for an include name that leaves the directory, ACL_ERROR_RTC_FAILURE
// when the compiler cannot be run; `out` is filled in every case.
Status RunCompiler(const CompileInput& in, CompileOutput& out);

}  // namespace npurt::core::rtc
