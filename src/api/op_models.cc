#include "api/op_models.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "acl/acl_base_rt.h"
#include "dfx/log.h"
#include "models/om/om_reader.h"
#include "models/om/single_op.h"
#include "ops/compile_cache.h"

namespace npurt::api {
namespace {

std::mutex g_dir_mu;
bool g_dir_loaded = false;  // aclopSetModelDir succeeded once (process-wide, as CANN)

bool EndsWithOm(const std::string& name) { return name.size() > 3 && name.compare(name.size() - 3, 3, ".om") == 0; }

}  // namespace

Status LoadOpModel(const void* data, size_t size, std::string_view source) {
  auto file = om::ReadModel(data, size, source);
  if (!file.ok()) return Err(ACL_ERROR_PARSE_MODEL, "{}", file.status().message());
  auto op = om::SingleOpOf(file.value().def);
  if (!op.ok()) return Err(ACL_ERROR_PARSE_MODEL, "{}: {}", source, op.status().message());
  ops::OpCall call;
  call.type = op->op_type;
  call.inputs = op->inputs;
  call.requested = op->outputs;
  call.attrs = &op->attrs;
  bool hit = false;
  auto compiled = ops::CompileCache::Get().GetOrCompile(call, &hit);
  if (!compiled.ok()) {
    return Err(ACL_ERROR_OP_LOAD_FAILED, "{}: the single-operator model of {} does not compile here: {}", source,
               op->op_type, compiled.status().message());
  }
  NPURT_LOG_INFO("OP", "single-operator model {} loaded: {} ({})", source, op->op_type,
                 hit ? "already compiled" : "compiled now");
  return Status::Ok();
}

Status LoadOpModelDir(const char* dir, size_t* loaded) {
  *loaded = 0;
  char real[PATH_MAX];
  if (realpath(dir, real) == nullptr) {
    return Err(ACL_ERROR_READ_MODEL_FAILURE, "model directory '{}' cannot be resolved: {}", dir, std::strerror(errno));
  }
  struct stat st{};
  if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
    return Err(ACL_ERROR_READ_MODEL_FAILURE, "model directory '{}' is not a directory", dir);
  }
  std::lock_guard<std::mutex> lock(g_dir_mu);
  if (g_dir_loaded) {
    return Err(ACL_ERROR_REPEAT_INITIALIZE, "aclopSetModelDir may load one directory per process; one is loaded "
               "(aclopLoad adds single models)");
  }
  std::vector<std::string> names;
  DIR* d = opendir(real);
  if (d == nullptr) {
    return Err(ACL_ERROR_READ_MODEL_FAILURE, "model directory '{}' cannot be read: {}", dir, std::strerror(errno));
  }
  while (const dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (!EndsWithOm(name)) continue;
    struct stat fst{};
    const std::string path = std::string(real) + "/" + name;
    if (stat(path.c_str(), &fst) == 0 && S_ISREG(fst.st_mode)) names.push_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  for (const std::string& name : names) {
    const std::string path = std::string(real) + "/" + name;
    std::string bytes;
    Status read = om::ReadFileBytes(path, &bytes);
    if (!read.ok()) return Err(ACL_ERROR_READ_MODEL_FAILURE, "{}", read.message());
    NPURT_RETURN_IF_ERROR(LoadOpModel(bytes.data(), bytes.size(), path));
    ++*loaded;
  }
  if (names.empty()) NPURT_LOG_WARNING("OP", "aclopSetModelDir: no .om file in '{}'", dir);
  g_dir_loaded = true;
  return Status::Ok();
}

}  // namespace npurt::api
