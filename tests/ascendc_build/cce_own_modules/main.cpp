// Launches scale_offset (kernel.cpp) on random integers and checks every element.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "acl/acl.h"

uint32_t scale_do(uint32_t blocks, void* stream, uint8_t* in, uint8_t* out, int32_t factor, int32_t offset,
                  uint32_t n);

int main() {
  std::mt19937 rng(std::random_device{}());
  const uint32_t n = 1000 + rng() % 5000, blocks = 1 + rng() % 8;
  const int32_t factor = static_cast<int32_t>(rng() % 200) - 100, offset = static_cast<int32_t>(rng() % 2000) - 1000;
  std::vector<int32_t> x(n), y(n);
  for (int32_t& v : x) v = static_cast<int32_t>(rng() % 200000) - 100000;
  aclrtStream stream = nullptr;
  void *dx = nullptr, *dy = nullptr;
  const size_t bytes = n * sizeof(int32_t);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS ||
      aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
      scale_do(blocks, stream, static_cast<uint8_t*>(dx), static_cast<uint8_t*>(dy), factor, offset, n) != 0 ||
      aclrtSynchronizeStream(stream) != ACL_SUCCESS ||
      aclrtMemcpy(y.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    std::fprintf(stderr, "ACL call failed\n");
    return 1;
  }
  for (uint32_t i = 0; i < n; ++i) {
    if (y[i] != x[i] * factor + offset) {
      std::fprintf(stderr, "y[%u] = %d, expected %d\n", i, y[i], x[i] * factor + offset);
      return 1;
    }
  }
  aclrtFree(dx);
  aclrtFree(dy);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("cce project with its own modules: %u elements match\n", n);
  return 0;
}
