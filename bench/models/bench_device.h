// What the model benchmark programs (gear_switch/, dynshape/) share: failing loudly with the runtime's
// message, and device buffers of random data.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace npurt::bench {

[[noreturn]] inline void Die(const char* program, const char* what) {
  const char* m = aclGetRecentErrMsg();
  std::fprintf(stderr, "%s: %s failed: %s\n", program, what, m != nullptr ? m : "");
  std::exit(1);
}

// `bytes` of device memory holding uniform floats in [-1, 1) drawn from `seed`.
inline void* DeviceRandom(const char* program, size_t bytes, uint32_t seed) {
  void* p = nullptr;
  if (aclrtMalloc(&p, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) Die(program, "aclrtMalloc");
  std::vector<float> host(bytes / 4);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (float& v : host) v = u(gen);
  if (!host.empty() && aclrtMemcpy(p, bytes, host.data(), host.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
    Die(program, "aclrtMemcpy");
  }
  return p;
}

// The command line both take: <model.om> <value>=<static.om> ... [--steps N] [--seed S] [--<extra> V].
struct SequenceArgs {
  std::string model;
  std::map<int64_t, std::string> statics;  // the value (batch, length) -> its static model
  int steps = 40;
  uint32_t seed = 2026;
  int64_t extra = 0;  // the value of --<extra name>, if the program has one
};

// False on a malformed line (the caller prints its usage).
inline bool ParseSequenceArgs(int argc, char** argv, const char* extra_name, SequenceArgs* out) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--steps" && i + 1 < argc) {
      out->steps = std::atoi(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      out->seed = static_cast<uint32_t>(std::atoi(argv[++i]));
    } else if (extra_name != nullptr && a == std::string("--") + extra_name && i + 1 < argc) {
      out->extra = std::atoll(argv[++i]);
    } else if (a.find('=') != std::string::npos) {
      out->statics[std::strtoll(a.c_str(), nullptr, 10)] = a.substr(a.find('=') + 1);
    } else {
      out->model = a;
    }
  }
  return !out->model.empty() && !out->statics.empty() && out->steps > 0;
}

}  // namespace npurt::bench
