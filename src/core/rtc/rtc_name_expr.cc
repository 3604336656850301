#include "core/rtc/rtc_name_expr.h"

#include <cctype>

namespace npurt::core::rtc {
namespace {

bool IsIdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_'; }
bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string CollapseSpace(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0) {
      space = !out.empty();
      continue;
    }
    if (space) out.push_back(' ');
    space = false;
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::optional<NameExpr> ParseNameExpr(const std::string& expr) {
  const size_t lt = expr.find('<');
  // The qualified name, white space dropped ("Kernel :: k" is "Kernel::k"); a leading "::" means the same.
  std::string qualified;
  for (char c : expr.substr(0, lt)) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) qualified.push_back(c);
  }
  if (qualified.starts_with("::")) qualified.erase(0, 2);
  std::string kernel;
  for (size_t i = 0; i <= qualified.size();) {
    const size_t sep = qualified.find("::", i);
    const std::string part = qualified.substr(i, sep == std::string::npos ? std::string::npos : sep - i);
    if (part.empty() || !IsIdentStart(part[0])) return std::nullopt;
    for (char c : part) {
      if (!IsIdentChar(c)) return std::nullopt;
    }
    kernel = part;
    if (sep == std::string::npos) break;
    i = sep + 2;
  }
  NameExpr out{kernel, "", qualified};
  if (lt == std::string::npos) return out;
  // Template arguments: the rest, one balanced <...> ending the expression.
  const size_t gt = expr.find_last_not_of(" \t\r\n");
  if (expr[gt] != '>') return std::nullopt;
  int depth = 0;
  for (size_t i = lt; i <= gt; ++i) {
    depth += expr[i] == '<' ? 1 : expr[i] == '>' ? -1 : 0;
    if (depth == 0 && i != gt) return std::nullopt;
    if (depth < 0) return std::nullopt;
  }
  out.targs = CollapseSpace(expr.substr(lt + 1, gt - lt - 1));
  if (out.targs.empty()) return std::nullopt;
  out.lowered = qualified + "<" + out.targs + ">";
  return out;
}

std::optional<std::string> ResolveLoweredName(const NameExpr& expr, const std::vector<std::string>& names) {
  std::optional<std::string> suffix_match;
  for (const std::string& n : names) {
    if (n == expr.lowered) return n;
    if (n.size() > expr.lowered.size() + 2 && n.ends_with("::" + expr.lowered)) {
      if (suffix_match.has_value()) return std::nullopt;  // ambiguous: name the namespace
      suffix_match = n;
    }
  }
  return suffix_match;
}

}  // namespace npurt::core::rtc
