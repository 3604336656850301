// Fuzz target: the model dump configuration, through aclmdlInitDump / aclmdlSetDump(file) /
// aclmdlFinalizeDump (the "dump" section's parser is the one the aclInit config uses too).
//
// Input: the JSON text of the dump config file. When aclmdlSetDump accepts it, acldumpGetPath reports
// the configured directory and, if the config turned the operator dump on, one operator runs so the
// config is applied (the dump files land in the scratch directory).
#include <cstdlib>
#include <cstring>
#include <string>

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_op_compiler.h"
#include "fuzz_util.h"

namespace {

aclrtStream g_stream = nullptr;

// One small Add on random (non-zero) data: enough for a dump config to take effect.
void RunOneOp() {
  constexpr int64_t kN = 8;
  const int64_t dims[] = {kN};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  void* dev[3] = {};
  aclDataBuffer* buf[3] = {};
  float host[kN];
  for (int64_t i = 0; i < kN; ++i) host[i] = 0.5f + static_cast<float>(i) * 1.25f;
  for (int i = 0; i < 3; ++i) {
    if (aclrtMalloc(&dev[i], sizeof host, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::abort();
    if (aclrtMemcpy(dev[i], sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) std::abort();
    buf[i] = aclCreateDataBuffer(dev[i], sizeof host);
  }
  const aclTensorDesc* in_desc[] = {desc, desc};
  const aclTensorDesc* out_desc[] = {desc};
  const aclDataBuffer* in[] = {buf[0], buf[1]};
  aclDataBuffer* out[] = {buf[2]};
  npurt_fuzz::Check(aclopCompileAndExecute("Add", 2, in_desc, in, 1, out_desc, out, nullptr, ACL_ENGINE_SYS,
                                           ACL_COMPILE_SYS, nullptr, g_stream),
                    "aclopCompileAndExecute");
  npurt_fuzz::Check(aclrtSynchronizeStream(g_stream), "aclrtSynchronizeStream");
  for (int i = 0; i < 3; ++i) {
    aclDestroyDataBuffer(buf[i]);
    aclrtFree(dev[i]);
  }
  aclDestroyTensorDesc(desc);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)npurt_fuzz::ScratchDir();
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  if (aclrtCreateStream(&g_stream) != ACL_SUCCESS) std::abort();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text = npurt_fuzz::ConfinePaths(data, size);
  const std::string path = npurt_fuzz::WriteScratchFile("dump.json", text.data(), text.size());
  if (npurt_fuzz::Check(aclmdlInitDump(), "aclmdlInitDump") != ACL_SUCCESS) std::abort();
  if (npurt_fuzz::Check(aclmdlSetDump(path.c_str()), "aclmdlSetDump") == ACL_SUCCESS) {
    const char* where = acldumpGetPath(DATA_DUMP);
    if (where != nullptr && std::strlen(where) > 4096) std::abort();
    if (where != nullptr) RunOneOp();
  }
  if (npurt_fuzz::Check(aclmdlFinalizeDump(), "aclmdlFinalizeDump") != ACL_SUCCESS) std::abort();
  return 0;
}
