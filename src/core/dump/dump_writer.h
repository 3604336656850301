// Where dump data goes (docs/dump.md): a file, or, while a callback is registered with
// acldumpRegCallback, the callback in acldumpChunk pieces named after the file that would have been
// written. Used by the exception dump, acldumpSaveExceptionInfo, the operator dump and the argument dump.
#pragma once

#include <cstddef>
#include <string>

#include "acl/acl_dump.h"

namespace npurt::core::dump {

void SetCallback(acldumpMessageCallback callback);
bool HasCallback();

// Writes `size` bytes as file `path` (creating its directory), or hands them to the callback. `head`
// (optional) is written first, as part of the same file. False if the file cannot be written or the
// callback returned non-zero.
bool Emit(const std::string& path, const void* data, size_t size, const std::string& head = std::string());

// Local time with microseconds, yyyymmddhhmmssuuuuuu: the timestamp part of dump file names.
std::string TimeStamp();

}  // namespace npurt::core::dump
