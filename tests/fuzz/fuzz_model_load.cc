// Fuzz target: offline models from memory, through aclmdlQuerySizeFromMem, aclmdlGetDescFromMem and
// aclmdlLoadFromMem (the container's header checks, the FlatBuffers verifier and the semantic checks of
// src/models/om/om_reader.cc), then one execution on zero inputs (and, for a gear model, one of its first
// gear) and an unload when the load succeeds. Each input goes to aclopLoad too (single-operator models, atc
// --singleop: the same container, then the operator compiled into the op compile cache). A dynamic-shape
// model runs at its smallest shapes, so mutations of its source graph reach the runtime's shape compiler.
//
// The container carries CRCs, so almost every mutation would stop at the first checksum. Each input is
// therefore tried twice: as it is, and with its header's and parts' CRCs recomputed, which lets the
// mutations reach the verifier and the loader.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "fuzz_util.h"
#include "models/om/om_crc.h"
#include "models/om/om_format.h"

namespace {

aclrtStream g_stream = nullptr;

// The input with valid CRCs where its header's part bounds allow computing them.
std::vector<uint8_t> FixCrcs(const uint8_t* data, size_t size) {
  std::vector<uint8_t> v(data, data + size);
  if (size < sizeof(npurt::om::FileHeader)) return v;
  npurt::om::FileHeader h;
  std::memcpy(&h, v.data(), sizeof h);
  const auto fits = [&](uint64_t off, uint64_t len) { return off <= size && len <= size - off && len < (1u << 30); };
  if (fits(h.model_offset, h.model_size)) h.model_crc32 = npurt::om::Crc32(v.data() + h.model_offset, h.model_size);
  if (fits(h.weights_offset, h.weights_size)) h.weights_crc32 = npurt::om::Crc32(v.data() + h.weights_offset, h.weights_size);
  h.header_crc32 = npurt::om::Crc32(reinterpret_cast<const uint8_t*>(&h), offsetof(npurt::om::FileHeader, header_crc32));
  std::memcpy(v.data(), &h, sizeof h);
  return v;
}

void RunOnce(uint32_t id) {
  aclmdlDesc* desc = aclmdlCreateDesc();
  npurt_fuzz::Check(aclmdlGetDesc(desc, id), "aclmdlGetDesc");
  aclmdlDataset* sets[2] = {aclmdlCreateDataset(), aclmdlCreateDataset()};
  std::vector<void*> mem;
  std::vector<aclDataBuffer*> bufs;
  bool ok = true;
  // A dynamic-shape model runs at its smallest shapes (each input's range minimum; the shape compiler then
  // converts the source graph the file holds), with outputs of 1 MiB.
  std::vector<std::vector<int64_t>> shapes(aclmdlGetNumInputs(desc));
  for (size_t i = 0; i < shapes.size(); ++i) {
    aclmdlIODims dims{};
    aclmdlIODimsRange range{};
    if (aclmdlGetInputDims(desc, i, &dims) != ACL_SUCCESS) continue;
    bool dynamic = false;
    for (size_t k = 0; k < dims.dimCount; ++k) dynamic = dynamic || dims.dims[k] < 0;
    if (!dynamic || aclmdlGetInputDimsRange(desc, i, &range) != ACL_SUCCESS || range.rangeCount != dims.dimCount) continue;
    for (size_t k = 0; k < range.rangeCount; ++k) shapes[i].push_back(range.range[k][0]);
  }
  const bool shaped = std::any_of(shapes.begin(), shapes.end(), [](const auto& v) { return !v.empty(); });
  for (int io = 0; io < 2 && ok; ++io) {
    const size_t n = io == 0 ? aclmdlGetNumInputs(desc) : aclmdlGetNumOutputs(desc);
    for (size_t i = 0; i < n; ++i) {
      size_t bytes = io == 0 ? aclmdlGetInputSizeByIndex(desc, i) : aclmdlGetOutputSizeByIndex(desc, i);
      if (io == 0 && !shapes[i].empty()) {
        bytes = aclDataTypeSize(aclmdlGetInputDataType(desc, i));
        for (int64_t d : shapes[i]) bytes = d > 0 && bytes <= (64u << 20) / static_cast<size_t>(d) ? bytes * d : (65u << 20);
      }
      if (io == 1 && shaped && bytes == 0) bytes = 1u << 20;
      if (bytes > (64u << 20)) {  // a huge tensor: loading accepted it, but not worth running here
        ok = false;
        break;
      }
      void* p = nullptr;
      if (aclrtMalloc(&p, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) std::abort();
      if (aclrtMemset(p, bytes == 0 ? 1 : bytes, 0, bytes == 0 ? 1 : bytes) != ACL_SUCCESS) std::abort();
      mem.push_back(p);
      bufs.push_back(aclCreateDataBuffer(p, bytes));
      aclmdlAddDatasetBuffer(sets[io], bufs.back());
      if (io == 0 && !shapes[i].empty()) {
        aclTensorDesc* t = aclCreateTensorDesc(aclmdlGetInputDataType(desc, i), static_cast<int>(shapes[i].size()),
                                               shapes[i].data(), aclmdlGetInputFormat(desc, i));
        npurt_fuzz::Check(aclmdlSetDatasetTensorDesc(sets[0], t, i), "aclmdlSetDatasetTensorDesc");
        aclDestroyTensorDesc(t);
      }
    }
  }
  if (ok) npurt_fuzz::Check(aclmdlExecute(id, sets[0], sets[1]), "aclmdlExecute");
  // A gear model: its first gear too, chosen through the selector (the last input).
  aclmdlBatch batch{};
  aclmdlHW hw{};
  const size_t selector = aclmdlGetNumInputs(desc) - 1;
  if (ok && aclmdlGetDynamicBatch(desc, &batch) == ACL_SUCCESS && batch.batchCount > 0 &&
      npurt_fuzz::Check(aclmdlSetDynamicBatchSize(id, sets[0], selector, batch.batch[0]), "aclmdlSetDynamicBatchSize") ==
          ACL_SUCCESS) {
    npurt_fuzz::Check(aclmdlExecute(id, sets[0], sets[1]), "aclmdlExecute (gear)");
  }
  if (ok && aclmdlGetDynamicHW(desc, static_cast<size_t>(-1), &hw) == ACL_SUCCESS && hw.hwCount > 0 &&
      npurt_fuzz::Check(aclmdlSetDynamicHWSize(id, sets[0], selector, hw.hw[0][0], hw.hw[0][1]),
                        "aclmdlSetDynamicHWSize") == ACL_SUCCESS) {
    npurt_fuzz::Check(aclmdlExecute(id, sets[0], sets[1]), "aclmdlExecute (gear)");
  }
  for (aclmdlDataset* s : sets) aclmdlDestroyDataset(s);
  for (aclDataBuffer* b : bufs) aclDestroyDataBuffer(b);
  for (void* p : mem) aclrtFree(p);
  aclmdlDestroyDesc(desc);
}

void Try(const std::vector<uint8_t>& bytes) {
  if (bytes.empty()) return;
  size_t work = 0, weight = 0;
  npurt_fuzz::Check(aclmdlQuerySizeFromMem(bytes.data(), bytes.size(), &work, &weight), "aclmdlQuerySizeFromMem");
  aclmdlDesc* desc = aclmdlCreateDesc();
  if (npurt_fuzz::Check(aclmdlGetDescFromMem(desc, bytes.data(), bytes.size()), "aclmdlGetDescFromMem") == ACL_SUCCESS) {
    for (size_t i = 0; i < aclmdlGetNumInputs(desc); ++i) (void)aclmdlGetInputNameByIndex(desc, i);
  }
  aclmdlDestroyDesc(desc);
  npurt_fuzz::Check(aclopLoad(bytes.data(), bytes.size()), "aclopLoad");
  if (work > (256u << 20) || weight > (256u << 20)) return;  // legal, but too much memory for a fuzz run
  uint32_t id = 0;
  if (npurt_fuzz::Check(aclmdlLoadFromMem(bytes.data(), bytes.size(), &id), "aclmdlLoadFromMem") != ACL_SUCCESS) return;
  RunOnce(id);
  npurt_fuzz::Check(aclmdlUnload(id), "aclmdlUnload");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Try(std::vector<uint8_t>(data, data + size));
  Try(FixCrcs(data, size));
  return 0;
}
