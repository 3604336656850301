#include "models/soc_compat.h"

#include <cctype>

namespace npurt::models {

bool IsAscendSoc(std::string_view soc) {
  // "Ascend" + a family of three digits (310, 910, 950, ...) + an optional variant of letters, digits, '_'
  // and '-' (B1, P3, B4-1, _9391, PR_9599).
  constexpr std::string_view kPrefix = "Ascend";
  if (soc.substr(0, kPrefix.size()) != kPrefix || soc.size() < kPrefix.size() + 3 || soc.size() > 64) return false;
  for (size_t i = kPrefix.size(); i < kPrefix.size() + 3; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(soc[i]))) return false;
  }
  for (size_t i = kPrefix.size() + 3; i < soc.size(); ++i) {
    const char c = soc[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace npurt::models
