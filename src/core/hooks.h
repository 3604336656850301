// User hooks run at lifecycle points: device-state callbacks (aclrtRegDeviceStateCallback), stream-state
// callbacks (aclrtRegStreamStateCallback) and the aclInit/aclFinalize hooks that the model, operator and
// TDT libraries register (aclInitCallbackRegister ...). Each registry is keyed so that re-registering a
// name replaces its callback and a null callback removes it, as in CANN.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace npurt::core {

using DeviceStateHook = void (*)(int32_t device_id, int32_t state, void* args);
using StreamStateHook = void (*)(void* stream, int32_t state, void* args);
using InitHook = int32_t (*)(const char* config, size_t len, void* user_data);
using FinalizeHook = int32_t (*)(void* user_data);

void SetDeviceStateHook(const std::string& name, DeviceStateHook hook, void* args);
void SetStreamStateHook(const std::string& name, StreamStateHook hook, void* args);
void RunDeviceStateHooks(int32_t device_id, int32_t state);
void RunStreamStateHooks(void* stream, int32_t state);

Status AddInitHook(int32_t type, InitHook hook, void* user_data);
Status RemoveInitHook(int32_t type, InitHook hook);
Status AddFinalizeHook(int32_t type, FinalizeHook hook, void* user_data);
Status RemoveFinalizeHook(int32_t type, FinalizeHook hook);
// Runs every init hook with the config text; the first failure is returned.
Status RunInitHooks(const std::string& config);
Status RunFinalizeHooks();

}  // namespace npurt::core
