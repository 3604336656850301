// Fuzz target: the aclInit configuration file, through aclInit / aclFinalize.
//
// Input: optional leading lines "#NAME=VALUE" that set one of the runtime's environment variables for
// this aclInit (NPURT_SIM_*, NPURT_STREAM_LIMIT, NPURT_DRIVER), then the JSON text of the config file,
// which carries every section aclInit reads: "npurt" (driver settings), "err_msg_mode",
// "defaultDevice", "dump" (the data dump) and "profiler" (command-mode profiling). The runtime is
// initialised once with no file first, so the driver exists and later inputs exercise what a repeated
// aclInit parses (the driver settings of the first aclInit are covered by tests/conformance/init_test.cc).
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "fuzz_util.h"

namespace {

const char* const kEnvNames[] = {"NPURT_SIM_DEVICE_COUNT", "NPURT_SIM_MEMORY_MB", "NPURT_SIM_AICORE_COUNT",
                                 "NPURT_SIM_MODE", "NPURT_SIM_SOC", "NPURT_SIM_HOST_VISIBLE_MEMORY",
                                 "NPURT_STREAM_LIMIT", "NPURT_DRIVER"};

bool KnownEnv(const std::string& name) {
  for (const char* n : kEnvNames) {
    if (name == n) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)npurt_fuzz::ScratchDir();
  for (const char* n : kEnvNames) unsetenv(n);
  if (aclInit(nullptr) != ACL_SUCCESS || aclFinalize() != ACL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // "#NAME=VALUE\n" lines first.
  std::vector<std::string> set;
  size_t pos = 0;
  while (pos < size && data[pos] == '#') {
    const uint8_t* nl = static_cast<const uint8_t*>(std::memchr(data + pos, '\n', size - pos));
    const size_t end = nl != nullptr ? static_cast<size_t>(nl - data) : size;
    const std::string line(reinterpret_cast<const char*>(data + pos + 1), end - pos - 1);
    const size_t eq = line.find('=');
    if (eq != std::string::npos && KnownEnv(line.substr(0, eq)) && line.find('\0') == std::string::npos) {
      setenv(line.substr(0, eq).c_str(), line.c_str() + eq + 1, 1);
      set.push_back(line.substr(0, eq));
    }
    pos = end < size ? end + 1 : size;
  }
  const std::string text = npurt_fuzz::ConfinePaths(data + pos, size - pos);
  const std::string path = npurt_fuzz::WriteScratchFile("acl.json", text.data(), text.size());

  if (npurt_fuzz::Check(aclInit(path.c_str()), "aclInit") == ACL_SUCCESS) {
    // What the config set up must be usable and must come down cleanly.
    uint32_t count = 0;
    if (npurt_fuzz::Check(aclrtGetDeviceCount(&count), "aclrtGetDeviceCount") == ACL_SUCCESS && count > 0) {
      if (npurt_fuzz::Check(aclrtSetDevice(0), "aclrtSetDevice") == ACL_SUCCESS) {
        npurt_fuzz::Check(aclrtResetDevice(0), "aclrtResetDevice");
      }
    }
    if (npurt_fuzz::Check(aclFinalize(), "aclFinalize") != ACL_SUCCESS) std::abort();
  }
  for (const std::string& n : set) unsetenv(n.c_str());
  return 0;
}
