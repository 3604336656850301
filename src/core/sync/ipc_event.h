// Sharing events and notifies between processes of one machine (aclrtIpcGetEventHandle /
// aclrtIpcOpenEventHandle, aclrtNotifyGetExportKey / aclrtNotifyImportByKey / aclrtNotifySetImportPid*).
//
// Both sit on shared flags (hal::Device::CreateSharedFlag): the driver keeps the flag's value in memory
// every process maps and wakes parked queues of every process on a signal; core keeps the object's
// counters (event: record count; notify: records and waits) in the flag's shared area, so a record in
// one process and a wait in another pair up exactly as within one process.
//
// Event handles (64 bytes) carry the driver's share token and need no permission (as in CANN). Notify
// keys ("npurt-ntf-<hex token>") follow the scheme of memory IPC keys (core/memory/mem_ipc.h): unless the
// exporter disabled it, only processes on the exporter's allow-list (aclrtNotifySetImportPid) may
// import; the list lives in the shared area, so it needs no record file. Thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace npurt::core {

class Context;
class Device;
class Event;
class Notify;

inline constexpr size_t kIpcEventHandleBytes = 64;

// The handle of an event created with ACL_EVENT_IPC.
Status IpcEventHandle(Event* event, uint8_t out[kIpcEventHandleBytes]);
// Opens another process's (or this process's) IPC event in `context`.
StatusOr<Event*> IpcOpenEvent(Context* context, const uint8_t handle[kIpcEventHandleBytes]);

// Exports `notify` (moving it to a shared flag on first export); pid_validation=false lets any process
// import. Returns the key.
StatusOr<std::string> NotifyExport(Notify* notify, bool pid_validation);
// Adds processes allowed to import an exported notify.
Status NotifyAllowPids(Notify* notify, const int32_t* pids, size_t count);
// Opens a notify exported by any process, as a notify of `device`.
StatusOr<Notify*> NotifyImport(Device* device, const std::string& key);

}  // namespace npurt::core
