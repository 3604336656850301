// Shared pieces of the libFuzzer targets (docs/fuzzing.md): a scratch directory the targets write into,
// a JSON rewrite that keeps fuzzed paths inside it, and the check every target makes on every call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl.h"

namespace npurt_fuzz {

// A directory of this process (under $TMPDIR or /tmp), created on first use and removed at exit. The
// targets chdir() into it, so relative paths from the input land there too.
const std::string& ScratchDir();

// Writes `size` bytes to `name` inside ScratchDir() and returns its path (aborts if it cannot: that is
// the harness failing, not the runtime).
std::string WriteScratchFile(const char* name, const void* data, size_t size);

// Config text as the target passes it to the runtime. A fuzzed JSON may name any directory
// ("dump_path": "/etc/x", "output": "../../y") and the runtime creates the directories it is given, so
// every string under a key that names a path ("dump_path", "output", "path") that is absolute or
// climbs out with ".." is moved under ScratchDir(). Text that is not JSON, or needs no rewrite, is
// returned unchanged, byte for byte.
std::string ConfinePaths(const uint8_t* data, size_t size);

// One fuzzed path, moved under ScratchDir() as ConfinePaths does when it is absolute or has "..".
std::string ConfinePath(const std::string& path);

// The contract every call is held to: a failing call leaves a message for aclGetRecentErrMsg (the
// message is taken, so the next call starts clean). Aborts (a finding) otherwise. Returns `rc`.
aclError Check(aclError rc, const char* call);

}  // namespace npurt_fuzz
