#include "models/runtime/shape_compiler.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <string>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "dfx/log.h"

namespace npurt::models {
namespace {

void LogFromCompiler(int level, const std::string& message) {
  switch (level) {
    case 0: NPURT_LOG_DEBUG("MODEL", "shape compiler: {}", message); break;
    case 1: NPURT_LOG_INFO("MODEL", "shape compiler: {}", message); break;
    case 2: NPURT_LOG_WARNING("MODEL", "shape compiler: {}", message); break;
    default: NPURT_LOG_ERROR("MODEL", "shape compiler: {}", message); break;
  }
}

const ShapeCompilerHost kHost{&core::BuildOperator, &LogFromCompiler};

// The library beside the one this code is in (libascendcl.so: the build's src/ or the package's lib64/).
std::string LibraryPath() {
  if (const char* v = env::Raw(env::Var::kShapeCompiler); v != nullptr && *v != '\0') return v;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&LibraryPath), &info) != 0 && info.dli_fname != nullptr) {
    std::string self = info.dli_fname;
    const size_t slash = self.rfind('/');
    if (slash != std::string::npos) return self.substr(0, slash + 1) + kShapeCompilerLibrary;
  }
  return kShapeCompilerLibrary;
}

struct Library {
  std::once_flag once;
  OpenShapeCompilerFn open = nullptr;
  std::string error;
};

Library& Lib() {
  static auto* lib = new Library();  // never closed: sessions of unloaded models may still run its code
  std::call_once(lib->once, [] {
    const std::string path = LibraryPath();
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      const char* why = dlerror();
      lib->error = fmt::format("the shape compiler {} does not load: {}", path, why != nullptr ? why : "?");
      return;
    }
    lib->open = reinterpret_cast<OpenShapeCompilerFn>(dlsym(h, kShapeCompilerEntry));
    if (lib->open == nullptr) lib->error = fmt::format("{} has no entry point {}", path, kShapeCompilerEntry);
  });
  return *lib;
}

}  // namespace

StatusOr<std::unique_ptr<ShapeCompilerSession>> OpenShapeCompiler(const uint8_t* source, size_t size,
                                                                  const std::string& options) {
  Library& lib = Lib();
  if (lib.open == nullptr) return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{}", lib.error);
  std::unique_ptr<ShapeCompilerSession> session;
  std::string error;
  if (!lib.open(&kHost, source, size, &options, &session, &error) || session == nullptr) {
    return Err(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED, "its source graph does not read: {}", error);
  }
  return session;
}

}  // namespace npurt::models
