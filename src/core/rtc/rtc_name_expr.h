// Name expressions of aclrtcAddNameExpr ("Kernel::add_custom<float>"): what the compiler is asked to
// instantiate and the name the compiled binary's kernel table gives the kernel (its "lowered" name).
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "core/rtc/rtc_name_expr.h is private to the npurt runtime"
#endif

#include <optional>
#include <string>
#include <vector>

namespace npurt::core::rtc {

struct NameExpr {
  std::string kernel;  // the kernel's own name ("add_custom")
  std::string targs;   // its template arguments as npurt-ascc's --npurt-instance takes them ("float"); empty: none
  std::string lowered;  // the expected table name: qualified name, arguments with white space runs made one
                        // space, as npurt_kernel_gen.py names instantiations ("Kernel::add_custom<float>")
};

// Parses `expr`; nullopt if it is not `[::]name{::name}[<args>]` with balanced angle brackets.
std::optional<NameExpr> ParseNameExpr(const std::string& expr);

// The name among the binary's kernel `names` that `expr` denotes: its lowered name, else the one name that
// ends with "::" + it (a name expression may leave out the kernel's namespace). nullopt if none or several.
std::optional<std::string> ResolveLoweredName(const NameExpr& expr, const std::vector<std::string>& names);

}  // namespace npurt::core::rtc
