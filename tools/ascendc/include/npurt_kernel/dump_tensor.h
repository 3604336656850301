// DumpTensor for the sim: prints a tensor's first elements from the running block, in CANN's layout
//
//   DumpTensor: desc=<desc>, addr=<hex>, data_type=<type>, position=<UB|L1|L0C|GM>, dump_size=<n>
//   [v0, v1, ..., v(n-1)]
//
// addr is the byte offset in the core's memory (UB, L1, L0C) or the global-memory address (GM); the
// memory is found from the address, so a LocalTensor of any position works. Floating-point elements print
// with %f, integers as integers. Like printf, each line reaches stdout whole. Compiling with
// -DASCENDC_DUMP=0 turns dumping off, as on CANN.
//   DumpTensor(LocalTensor<T> | GlobalTensor<T>, desc, dumpSize [, shapeInfo])   with a ShapeInfo the values
//       print nested by its shape ([[v, v], [v, v]]) when the shape covers at most dumpSize elements.
//   DumpAccChkPoint(tensor, index, countOff, dumpSize)   the dumpSize elements from element countOff, with
//       desc = index.
// The memory dumped is checked: it must lie in the core's UB, L1 or L0C (L0A, L0B and the other buffers
// cannot be dumped, as on an NPU) or in global memory (under NPURT_SIM_MEMCHECK). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {
namespace npurt_detail {

template <typename T>
constexpr const char* DumpTypeName() {
  if constexpr (std::is_same_v<T, half>) return "float16";
  else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  else if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16";
  else if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
  else if constexpr (std::is_same_v<T, int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
  else return nullptr;
}

// Where local memory [p, +bytes) is: its name and the offset of p in it (fails outside UB, L1 and L0C).
inline const char* LocalDumpPlace(const void* p, uint64_t bytes, uint64_t* offset, const char* what) {
  const npurt_kernel_block* b = g_state.block;
  const auto a = reinterpret_cast<uintptr_t>(p);
  const auto ub = reinterpret_cast<uintptr_t>(b->ub_base);
  if (a >= ub && a + bytes <= ub + b->ub_size) {
    *offset = a - ub;
    return "UB";
  }
  LocalMem m = LocalMem::kCount;
  if (FindCubeMemory(p, bytes, &m) && (m == LocalMem::kL1 || m == LocalMem::kL0C)) {
    *offset = a - reinterpret_cast<uintptr_t>(CubeBase(m));
    return m == LocalMem::kL1 ? "L1" : "L0C";
  }
  Fail("%s: [%p, +%llu bytes) is not in the core's UB, L1 or L0C (the memories a tensor can be dumped from)", what, p,
       static_cast<unsigned long long>(bytes));
}

template <typename T>
inline void DumpValue(const T& v, const char* sep) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_floating_point_v<T>) {
    PrintV("%f%s", static_cast<double>(static_cast<float>(v)), sep);
  } else if constexpr (std::is_signed_v<T>) {
    PrintV("%lld%s", static_cast<long long>(v), sep);
  } else {
    PrintV("%llu%s", static_cast<unsigned long long>(v), sep);
  }
}

// The elements [first, first + dims[0] * ... ) nested in brackets by dims (row-major), e.g. [[1, 2], [3, 4]].
template <typename T>
inline void DumpNested(const T* data, uint64_t first, const uint32_t* dims, uint32_t ndims, const char* tail) {
  PrintV("[");
  uint64_t inner = 1;
  for (uint32_t d = 1; d < ndims; ++d) inner *= dims[d];
  for (uint32_t i = 0; i < dims[0]; ++i) {
    const char* sep = i + 1 < dims[0] ? ", " : "";
    if (ndims == 1) DumpValue(data[first + i], sep);
    else DumpNested(data, first + i * inner, dims + 1, ndims - 1, sep);
  }
  PrintV("]%s", tail);
}

// count elements, flat, or nested by `shape` when it has dimensions and covers at most count elements (the
// elements past it follow flat); a shape of more elements than dumped prints flat.
template <typename T>
inline void DumpValues(const T* data, uint32_t count, const ShapeInfo* shape = nullptr) {
  uint64_t covered = 0;
  if (shape != nullptr && shape->shapeDim > 0) {
    covered = 1;
    for (uint32_t d = 0; d < shape->shapeDim; ++d) covered *= shape->shape[d];
    if (covered == 0 || covered > count) covered = 0;
  }
  if (covered == count && covered > 0) {
    DumpNested(data, 0, shape->shape, shape->shapeDim, "\n");
    return;
  }
  PrintV("[");
  uint64_t i = 0;
  if (covered > 0) {
    DumpNested(data, 0, shape->shape, shape->shapeDim, ", ");
    i = covered;
  }
  for (; i < count; ++i) DumpValue(data[i], i + 1 < count ? ", " : "");
  PrintV("]\n");
}

template <typename T>
inline void DumpLocal(const T* data, uint32_t desc, uint32_t count, const char* what,
                      const ShapeInfo* shape = nullptr) {
  static_assert(DumpTypeName<T>() != nullptr, "DumpTensor: the element type cannot be dumped");
  uint64_t offset = 0;
  const char* place = LocalDumpPlace(data, static_cast<uint64_t>(count) * sizeof(T), &offset, what);
  PrintV("DumpTensor: desc=%u, addr=%llx, data_type=%s, position=%s, dump_size=%u\n", desc,
         static_cast<unsigned long long>(offset), DumpTypeName<T>(), place, count);
  DumpValues(data, count, shape);
}

template <typename T>
inline void DumpGlobal(const T* data, uint32_t desc, uint32_t count, const char* what,
                       const ShapeInfo* shape = nullptr) {
  static_assert(DumpTypeName<T>() != nullptr, "DumpTensor: the element type cannot be dumped");
  CheckGlobal(data, static_cast<uint64_t>(count) * sizeof(T), false, what);
  PrintV("DumpTensor: desc=%u, addr=%llx, data_type=%s, position=GM, dump_size=%u\n", desc,
         static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(data)), DumpTypeName<T>(), count);
  DumpValues(data, count, shape);
}

constexpr bool kDumpOn =
#if defined(ASCENDC_DUMP) && (ASCENDC_DUMP == 0)
    false;
#else
    true;
#endif

}  // namespace npurt_detail

template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  if constexpr (npurt_detail::kDumpOn) npurt_detail::DumpLocal(tensor.GetPhyAddr(), desc, dumpSize, "DumpTensor");
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  if constexpr (npurt_detail::kDumpOn) npurt_detail::DumpGlobal(tensor.GetPhyAddr(), desc, dumpSize, "DumpTensor");
}

// With a shape: the values nested in brackets by shapeInfo's shape ([[...], ...]) when it covers at most
// dumpSize elements.
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo) {
  if constexpr (npurt_detail::kDumpOn) {
    npurt_detail::DumpLocal(tensor.GetPhyAddr(), desc, dumpSize, "DumpTensor", &shapeInfo);
  }
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo) {
  if constexpr (npurt_detail::kDumpOn) {
    npurt_detail::DumpGlobal(tensor.GetPhyAddr(), desc, dumpSize, "DumpTensor", &shapeInfo);
  }
}

template <typename T>
__aicore__ inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize) {
  if constexpr (npurt_detail::kDumpOn) {
    npurt_detail::DumpLocal(tensor.GetPhyAddr() + countOff, index, dumpSize, "DumpAccChkPoint");
  }
}
template <typename T>
__aicore__ inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize) {
  if constexpr (npurt_detail::kDumpOn) {
    npurt_detail::DumpGlobal(tensor.GetPhyAddr() + countOff, index, dumpSize, "DumpAccChkPoint");
  }
}

}  // namespace AscendC
