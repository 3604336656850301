// Host callbacks from streams.
//  - Report callbacks (aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport): a callback task
//    hands the callback to the inbox of the thread subscribed for its stream; that thread runs it inside
//    aclrtProcessReport. ACL_CALLBACK_BLOCK keeps the stream parked until the callback returned.
//  - Host functions (aclrtLaunchHostFunc): run on the device's host-function engine, or, when the stream
//    is subscribed with aclrtSubscribeHostFunc, on the subscribed thread inside aclrtProcessHostFunc.
//    The stream always waits for the function.
#pragma once

#include <cstdint>

#include "base/status.h"

namespace npurt::core {

class Stream;

using HostCallback = void (*)(void* user_data);

enum class InboxKind { kReport, kHostFunc };

Status Subscribe(InboxKind kind, uint64_t thread_id, Stream* stream);
Status Unsubscribe(InboxKind kind, uint64_t thread_id, Stream* stream);
// Runs the callbacks queued for the calling thread; waits up to timeout_ms (-1 forever) for one.
Status ProcessInbox(InboxKind kind, int32_t timeout_ms);

Status LaunchCallback(HostCallback fn, void* user_data, bool block, Stream* stream);
Status LaunchHostFunc(HostCallback fn, void* args, Stream* stream);

}  // namespace npurt::core
