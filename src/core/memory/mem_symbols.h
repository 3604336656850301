// Device global variables ("symbols") of loaded kernel code, for aclrtGetSymbolAddress and the
// aclrtMemcpy{To,From}Symbol family.
//
// The kernel-binary loader (core/kernel/kernel_binary, issue 3) registers each device variable of a binary it
// loads — the host-side symbol the program names it by, where the variable lives, its size — under the
// binary as owner, and unregisters them all when the binary is unloaded. Copies are bounds-checked
// against the variable; the variable itself may live in device memory or, on the sim, in the loaded
// kernel library's data. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

#include "base/status.h"

namespace npurt::core {

class Stream;

struct DeviceSymbol {
  void* address = nullptr;
  size_t size = 0;
  const void* owner = nullptr;
};

class SymbolRegistry {
 public:
  static SymbolRegistry& Get();

  Status Register(const void* owner, const void* host_symbol, void* address, size_t size);
  void UnregisterAll(const void* owner);
  StatusOr<DeviceSymbol> Find(const void* host_symbol) const;

 private:
  mutable std::mutex mu_;
  std::map<const void*, DeviceSymbol> symbols_;
};

// Copies count bytes into / out of the variable at `offset`, synchronously (stream == nullptr) or as a
// copy task on `stream`. `kind` is checked against the other side (host or device memory).
Status CopyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, int32_t kind, Stream* stream);
Status CopyFromSymbol(void* dst, size_t dst_max, const void* symbol, size_t count, size_t offset, int32_t kind,
                      Stream* stream);

}  // namespace npurt::core
