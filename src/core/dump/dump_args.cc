#include "core/dump/dump_args.h"

#include <string>

#include <fmt/format.h>

#include "core/kernel/builtin_tasks.h"
#include "core/device.h"
#include "core/dump/dump_config.h"
#include "core/dump/dump_writer.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {
namespace {

struct ArgsDump {
  std::string base;  // <path>/<kernel>.<task id>.<stream id>
  const hal::KernelLaunch* launch;
};

void WriteArgs(void* arg) {
  auto* d = static_cast<ArgsDump*>(arg);
  const std::string path = fmt::format("{}.{}.args.bin", d->base, dump::TimeStamp());
  // The kernel's task comes next on this stream, so its launch record (and block) is still alive.
  if (!dump::Emit(path, d->launch->args, d->launch->args_size)) {
    NPURT_LOG_ERROR("DUMP", "cannot write the kernel argument dump {}", path);
  }
  // (a dump failure never fails the stream)
}

}  // namespace

void SubmitKernelArgsDump(Stream* stream, const hal::KernelLaunch* launch, hal::Task* kernel_task) {
  const std::string dir = dump::ArgsPath();
  if (dir.empty()) return;
  kernel_task->id = NextTaskId();
  SubmitHostWork(stream, &WriteArgs,
                new ArgsDump{fmt::format("{}/{}.{}.{}", dir, launch->name, kernel_task->id, stream->id()), launch});
}

}  // namespace npurt::core
