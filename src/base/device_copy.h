// Reads and writes of simulated device memory by the simulated copy engines (and by synchronous host
// copies). Device words are polled concurrently by value waits (aclrtValueWait, stream waits on memory)
// with atomic loads, as hardware polls memory that DMA engines write: a 4- or 8-byte aligned copy is
// therefore one atomic store, so that a poller never sees the word torn. Everything else is plain
// memmove/memset: like a DMA engine, these functions do not order themselves against kernels or other
// engines touching the same bytes — that ordering is the program's (streams and events). They are out
// of line so that ThreadSanitizer runs can attribute device-memory races to them (tools/sanitizers/).
#pragma once

#include <cstddef>
#include <cstdint>

namespace npurt {

void CopyDeviceBytes(void* dst, const void* src, size_t n);
// `rows` rows of `width` bytes between pitched layouts.
void CopyDeviceRows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t rows);
void FillDeviceBytes(void* dst, uint8_t value, size_t n);
void FillDeviceWords(uint32_t* dst, uint32_t value, size_t count);

}  // namespace npurt
