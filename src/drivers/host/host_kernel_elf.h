// What the sim's kernel loader checks of a kernel image before the dynamic loader sees it: that it is a
// shared object for this machine, and that its program headers and dynamic section lie inside the bytes
// it has (the dynamic loader trusts both, so a truncated or corrupt image would fault inside dlopen
// instead of failing). Errors: ACL_ERROR_PARSE_FILE (ACL_ERROR_INVALID_FILE when the file cannot be read);
// `origin` names the image in messages.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "base/status.h"

namespace npurt::drivers::host {

// `header`: the first `size` bytes of an image (at least an ELF header's worth to pass).
Status CheckElfHeader(const uint8_t* header, size_t size, const std::string& origin);
// The whole image, after CheckElfHeader.
Status CheckElfSegments(const uint8_t* image, size_t size, const std::string& origin);
// The same check on a file of `size` bytes, read through a private read-only mapping.
Status CheckElfFileSegments(int fd, size_t size, const std::string& origin);

}  // namespace npurt::drivers::host
