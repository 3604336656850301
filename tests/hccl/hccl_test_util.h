// Helpers of the HCCL tests: ranks as threads of this process (one simulated device each), device buffers
// filled with random data, and a host reference of every reduction, computed as HCCL defines it.
#pragma once

#include <acl/acl.h>
#include <hccl/hccl.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <thread>
#include <vector>

namespace npurt_hccl_test {

size_t TypeSize(HcclDataType t);

// Random bytes for `count` elements of `t`, kept small enough that sums and products of up to 8 ranks stay
// exact in every type (integers in [-3, 3], floats with few mantissa bits).
// For products (`for_product`) the values are +-1 and +-2, so that four ranks' products fit int8.
std::vector<uint8_t> RandomElements(HcclDataType t, size_t count, std::mt19937& rng, bool for_product = false);

// out = in[0] op in[1] op ... (in rank order, floats widened and rounded once, as npurt reduces).
std::vector<uint8_t> ReferenceReduce(HcclDataType t, HcclReduceOp op, const std::vector<std::vector<uint8_t>>& in);

// A device buffer of `bytes` on the current device, optionally filled from host.
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  explicit DeviceBuffer(size_t n, const std::vector<uint8_t>* init = nullptr);
  ~DeviceBuffer();
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  std::vector<uint8_t> Read(size_t n = SIZE_MAX) const;
};

// Creates `n` communicators with HcclCommInitAll over devices 0..n-1 and runs body(rank, comm, stream) on one
// thread per rank (device set, stream created and destroyed around it). Returns false if creation failed.
bool RunRanks(uint32_t n, const std::function<void(uint32_t rank, HcclComm comm, aclrtStream stream)>& body);

}  // namespace npurt_hccl_test
