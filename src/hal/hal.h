// The driver interface: what core may ask of a device, and nothing more.
//
// Contract for every driver:
//  - A Driver enumerates devices and opens them; a Device owns a device-memory range, creates
//    hardware queues and sequence flags. Core never sees threads, engines or memory mappings.
//  - Queue::Submit is called from any host thread, concurrently, and must not block except for
//    back-pressure when the queue is full. Tasks of one queue execute one at a time, in order;
//    tasks of different queues may run concurrently.
//  - A task that fails records the first error of its queue (sticky) and calls the queue's failure
//    hook on the executing thread; with stop-on-failure the queue's later tasks are discarded.
//  - Every task's `cleanup` runs exactly once after the task finished or was discarded, on a
//    driver thread, so core can keep objects that a task uses alive until then.
//  - Waits (flag, value, host function) park the queue; no thread polls.
//
// One header per object: task.h (tasks, prepared lists, kernel launches), executable.h (device work a
// driver built, run by kDispatch), builtins.h (the executables every driver provides), queue.h, flag.h,
// device.h, capabilities.h (what a device is and can do), driver.h, driver_config.h (a driver's settings), op_backend.h (operators compiled into
// executables), kernel_module.h (kernel binaries the driver loads), observer.h (profiling's completion
// hook); driver_registry.h opens a driver by name. This header includes them all.
#pragma once

#include "hal/builtins.h"
#include "hal/capabilities.h"
#include "hal/device.h"
#include "hal/driver.h"
#include "hal/driver_config.h"
#include "hal/executable.h"
#include "hal/flag.h"
#include "hal/kernel_module.h"
#include "hal/observer.h"
#include "hal/op_backend.h"
#include "hal/queue.h"
#include "hal/task.h"
