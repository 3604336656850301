#include "fuzz_util.h"

#include <ftw.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

namespace npurt_fuzz {
namespace {

int RemoveEntry(const char* path, const struct stat*, int, struct FTW*) { return ::remove(path); }

void RemoveScratch() {
  const std::string& dir = ScratchDir();
  (void)chdir("/");
  nftw(dir.c_str(), RemoveEntry, 16, FTW_DEPTH | FTW_PHYS);
}

bool IsPathKey(const std::string& key) { return key == "dump_path" || key == "output" || key == "path"; }

bool Escapes(const std::string& p) { return !p.empty() && (p[0] == '/' || p.find("..") != std::string::npos); }

// Rewrites escaping path strings in place; true if anything changed.
bool Confine(nlohmann::json& j) {
  bool changed = false;
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (IsPathKey(it.key()) && it->is_string() && Escapes(it->get_ref<const std::string&>())) {
        *it = ConfinePath(it->get<std::string>());
        changed = true;
      } else {
        changed |= Confine(*it);
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) changed |= Confine(e);
  }
  return changed;
}

}  // namespace

const std::string& ScratchDir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ = std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/npurt-fuzz-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) {
      std::perror("npurt fuzz: mkdtemp");
      std::abort();
    }
    return templ;
  }();
  static const bool entered = [] {
    if (chdir(dir.c_str()) != 0) std::abort();
    std::atexit(RemoveScratch);
    return true;
  }();
  (void)entered;
  return dir;
}

std::string WriteScratchFile(const char* name, const void* data, size_t size) {
  const std::string path = ScratchDir() + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || (size != 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::perror("npurt fuzz: writing the input file");
    std::abort();
  }
  return path;
}

std::string ConfinePath(const std::string& path) {
  if (!Escapes(path)) return path;
  std::string p = path;
  for (size_t at; (at = p.find("..")) != std::string::npos;) p.replace(at, 2, "__");
  return ScratchDir() + "/confined/" + p;
}

std::string ConfinePaths(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !Confine(doc)) return text;
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

aclError Check(aclError rc, const char* call) {
  const char* msg = aclGetRecentErrMsg();
  if (rc != ACL_SUCCESS && (msg == nullptr || msg[0] == '\0')) {
    std::fprintf(stderr, "npurt fuzz: %s failed with %d and left no aclGetRecentErrMsg message\n", call, rc);
    std::abort();
  }
  return rc;
}

}  // namespace npurt_fuzz
