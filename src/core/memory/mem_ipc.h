// Sharing device memory between processes: IPC keys (aclrtIpcMem*) and shareable handles of physical
// allocations (aclrtMemExportToShareableHandle / aclrtMemImportFromShareableHandle).
//
// Design: an export writes a small record file (NPURT_IPC_DIR, default /dev/shm) named after the
// exporting process and a serial: the driver's share token (which lets another process open the
// device's memory — on the sim, its memfd through /proc/<pid>/fd), the physical extents, the size and
// the list of processes allowed to import. The key ("npurt-ipc-<pid>-<n>") or the 64-bit handle
// (pid << 32 | n) names the record. An importer reads the record, checks that its pid is listed
// (unless the exporter disabled the check), opens the memory through the driver and maps the extents
// into its own device address window. Records are rewritten atomically (write + rename) and removed
// when the export is closed, the physical allocation is freed, or the exporting process exits.
// Thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace npurt::core {

class Device;
class PhysicalMemory;

struct IpcExport {
  bool pid_validation = true;
};

// --- IPC keys (aclrtIpcMem*) ---------------------------------------------------------------------
// Exports [ptr, ptr + size) (inside one live allocation of `device`); returns the key.
StatusOr<std::string> IpcExportRange(Device* device, void* ptr, size_t size, bool pid_validation);
// Adds processes allowed to import a key this process exported.
Status IpcAllowPids(const std::string& key, const int32_t* pids, size_t count);
// Checks an attribute (the sim has one link; values are validated and remembered).
Status IpcSetAttribute(const std::string& key, int32_t type, uint64_t value);
// Maps a key exported by any process (this one included) on `device`; returns the address.
StatusOr<void*> IpcImport(Device* device, const std::string& key);
// Closes this process's import of `key`, or else its export of `key`.
Status IpcClose(const std::string& key);

// --- shareable handles of physical allocations ---------------------------------------------------
StatusOr<uint64_t> ShareablePhysicalExport(PhysicalMemory* memory, bool pid_validation);
Status ShareableAllowPids(uint64_t handle, const int32_t* pids, size_t count);
// Opens another process's (or our own) exported allocation as a handle of `device`.
StatusOr<PhysicalMemory*> ShareablePhysicalImport(Device* device, uint64_t handle);
// The FABRIC form: the handle as text ("npurt-shh-<pid>-<n>") in 128 bytes, and back.
void ShareableToFabric(uint64_t handle, uint8_t out[128]);
StatusOr<uint64_t> ShareableFromFabric(const uint8_t in[128]);

}  // namespace npurt::core
