// Test helper for npu-smi: sets a device, allocates memory, keeps a stream busy with host functions
// and prints "ready" once the status is published; runs until stdin closes or `seconds` pass.
//
//   hold_device <device> <megabytes> <seconds>
#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "acl/acl.h"

int main(int argc, char** argv) {
  const int device = argc > 1 ? std::atoi(argv[1]) : 0;
  const size_t mb = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 64;
  const int seconds = argc > 3 ? std::atoi(argv[3]) : 30;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(device) != ACL_SUCCESS) return 1;
  void* p = nullptr;
  if (aclrtMalloc(&p, mb << 20, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
  aclrtStream s = nullptr;
  if (aclrtCreateStream(&s) != ACL_SUCCESS) return 1;
  std::this_thread::sleep_for(std::chrono::milliseconds(700));  // > one publish period
  std::printf("ready %d\n", getpid());
  std::fflush(stdout);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < end) {
    // Keep the device busy: memsets on the stream, so npu-smi shows AI-core/engine activity.
    for (int i = 0; i < 8; ++i) aclrtMemsetAsync(p, mb << 20, i, mb << 20, s);
    aclrtSynchronizeStream(s);
    pollfd fd{0, POLLIN, 0};
    if (poll(&fd, 1, 0) > 0) {
      char c;
      if (read(0, &c, 1) <= 0) break;
    }
  }
  aclrtDestroyStream(s);
  aclrtFree(p);
  aclrtResetDevice(device);
  aclFinalize();
  return 0;
}
