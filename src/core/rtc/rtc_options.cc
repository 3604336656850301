#include "core/rtc/rtc_options.h"

#include <array>
#include <cctype>
#include <string_view>

#include "acl/acl_rt_compile.h"

namespace npurt::core::rtc {
namespace {

// The architecture an --npu-arch option names (either spelling), or empty.
std::string ArchOf(const std::string& opt, const std::string* next) {
  for (std::string_view flag : {"--npu-arch", "--cce-aicore-arch"}) {
    if (opt == flag && next != nullptr) return *next;
    if (opt.starts_with(std::string(flag) + "=")) return opt.substr(flag.size() + 1);
  }
  return "";
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

StatusOr<std::vector<std::string>> CheckOptions(const std::vector<std::string>& options) {
  // The options that make the compiler write something else than the one kernel binary aclrtc returns.
  static constexpr std::array<std::string_view, 7> kOutputChanging = {"-o", "-c", "-E", "-S", "-x", "-shared",
                                                                      "--npurt-"};
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& opt = options[i];
    const std::string arch = Lower(ArchOf(opt, i + 1 < options.size() ? &options[i + 1] : nullptr));
    // Ascend 950 (dav-3510 and its core names) has a kernel programming model the sim does not have.
    if (arch.starts_with("dav-35") || arch.starts_with("dav-c35") || arch.starts_with("dav-m35")) {
      return Err(ACL_ERROR_RTC_INVALID_OPTION,
                 "{}: --npu-arch={} (Ascend 950PR/950DT) is not simulated: npurt's simulated NPU is dav-2201 "
                 "(Atlas A2); compile with --npu-arch=dav-2201", opt, arch);
    }
    for (std::string_view bad : kOutputChanging) {
      const bool prefix = bad == "--npurt-" || bad == "-x";
      if (opt == bad || (prefix && opt.starts_with(bad)) || opt.starts_with("-M")) {
        return Err(ACL_ERROR_RTC_INVALID_OPTION,
                   "option {} is not accepted by aclrtcCompileProg: it changes what the compiler writes, and "
                   "aclrtc returns the one kernel binary", opt);
      }
    }
  }
  return options;
}

}  // namespace npurt::core::rtc
