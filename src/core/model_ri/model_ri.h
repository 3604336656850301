// ModelRI (core): a model running instance (aclmdlRI) — the tasks of one or more streams, recorded once
// (stream capture, or explicit building on persistent streams) and replayed many times.
//
// Recording: while a stream captures into a graph, Stream::Submit hands each task to ModelRI::Append
// instead of the driver; the task (already validated by the API that built it) is kept as prepared.
// Streams joined to the capture through events get their own list. Replay (graph_replay.cc) submits one
// kBatch task (hal::TaskList) to the launching stream: the driver runs the prepared tasks in place, so a
// replay costs three submissions whatever the graph's size, and nothing is validated again.
//
// Branches: a graph of several captured streams replays each joined stream's list on a stream of the
// graph's own (one per joined stream, created at its first launch), concurrently with the origin's list on
// the launching stream, as CUDA graphs do: the lists start after the launch point (a graph-private start
// flag), order each other through the graph-private flags their captured event records and waits became,
// and the launching stream waits for every branch's end flag before the replay's done flag. Where the
// driver's queues do not run independently (hal::DeviceCapabilities::concurrent_queues: the synchronous
// sim), and when the graph runs nested (a conditional task's branch), the lists run in capture order on one
// stream instead (a valid order: a wait always follows the record it waits for), as runs of consecutive
// tasks of one stream.
//
// Per-replay values: dependencies between the graph's own streams use graph-private flags with values
// relative to the replay number (hal::kFlagRelative); records of user events raise the event's flag by
// one (hal::kFlagIncrement) and bump its record count at launch; waits on events recorded outside the
// graph wait for "the next record after the last reset" (the event's reset mark). Replays of one graph
// run one after another (each waits for the previous one's done flag), as CUDA graph launches do.
//
// Lifetime: each launch retains the graph until its last task finished, so aclmdlRIDestroy never waits:
// it runs the destroy callbacks and drops the user's reference; the prepared tasks' cleanups run once,
// when the last reference goes.
//
// Thread-safety: recording, updates and introspection take mu_; Launch takes launch_mu_ only (so that
// concurrent launches get replay numbers in submission order) and reads no mutable state.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "acl/acl_rt.h"
#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"
#include "hal/hal.h"

namespace npurt::core {

class Context;
class Device;
class Event;
class Stream;
class ModelRI;
struct CondNode;
struct SwitchNode;

enum class CaptureMode : uint32_t { kGlobal = 0, kThreadLocal = 1, kRelaxed = 2 };

// One user-visible task of a graph stream: prepared tasks [first, first + count) of its list.
struct ModelRINode {
  uint32_t first = 0;
  uint32_t count = 1;
  aclmdlRITaskType type = ACL_MODEL_RI_TASK_DEFAULT;
  Event* event = nullptr;         // event tasks (kept alive by the prepared task's cleanup)
  HandleObject* handle = nullptr;  // aclmdlRITask, created on first introspection
  // aclmdlRITaskSetParams / aclmdlRITaskDisable, applied by aclmdlRIUpdate.
  bool pending = false;
  bool pending_disable = false;
  aclmdlRITaskParams pending_params{};
  std::vector<uint8_t> pending_args;  // kernel tasks: the new argument block, copied at SetParams
};

struct ModelRIStream {
  Stream* origin = nullptr;  // the captured or bound stream (retained)
  std::vector<hal::Task> tasks;
  std::vector<ModelRINode> nodes;
  std::atomic<uint32_t> version{0};  // sequence lock of `tasks` (hal::TaskList)
  hal::TaskList list;                // stable address: batch tasks point to it
  // Captured streams run in capture order with the origin; streams bound to an explicitly built model
  // other than its head run only when activated (nested in the activating stream's list).
  bool standalone = false;
  bool ended = false;  // capture: its last task is waited for by another stream; build: aclmdlRIEndTask
  size_t group_begin = SIZE_MAX;  // open aclmdlRICaptureTaskGrpBegin (node index)
};

// A task group (aclrtTaskGrp): nodes [first, last) of one graph stream.
class TaskGroup final : public HandleObject {
 public:
  TaskGroup(ModelRI* graph, uint32_t stream, uint32_t first, uint32_t last)
      : HandleObject(handle_tags::kModelTaskGroup), graph(graph), stream(stream), first(first), last(last) {}
  ModelRI* graph;
  uint32_t stream;
  uint32_t first;
  uint32_t last;

 private:
  ~TaskGroup() override = default;
  friend class ModelRI;
};

// The handle of one graph task (aclmdlRITask).
class ModelRITaskHandle final : public HandleObject {
 public:
  ModelRITaskHandle(ModelRI* graph, uint32_t stream, uint32_t node)
      : HandleObject(handle_tags::kModelTask), graph(graph), stream(stream), node(node) {}
  ModelRI* graph;
  uint32_t stream;
  uint32_t node;

 private:
  ~ModelRITaskHandle() override = default;
  friend class ModelRI;
};

class ModelRI final : public HandleObject {
 public:
  enum class State : uint32_t { kEmpty, kCapturing, kBuilding, kReady };

  static StatusOr<ModelRI*> Create(Context* context, State state);

  Context* context() const { return context_; }
  uint32_t id() const { return id_; }
  State state() const { return state_.load(std::memory_order_acquire); }
  std::mutex& mu() { return mu_; }

  // --- Recording (graph_capture.cc).
  Status BeginCapture(Stream* stream, CaptureMode mode);
  // *ended: the capture is over (also when it failed because it was invalidated).
  Status EndCapture(Stream* stream, bool* ended);
  void Invalidate(int32_t code, const std::string& why);
  bool invalidated() const { return invalid_code_.load(std::memory_order_acquire) != 0; }
  CaptureMode mode() const { return mode_; }
  // Stream::Submit's hook: keeps `task` as the next task of the stream's list; returns 0.
  uint64_t Append(Stream* stream, hal::Task& task);
  // Event tasks recorded into the graph (Event::Record / Reset / StreamWait on a recording stream).
  Status AppendRecord(Stream* stream, Event* event);
  Status AppendReset(Stream* stream, Event* event);
  Status AppendWait(Stream* stream, Event* event, uint64_t timeout_ns);
  // Joins a stream that waited on an event recorded in this capture.
  Status Join(Stream* stream);

  // --- Explicit building (graph_build.cc).
  Status Bind(Stream* stream, bool head);
  Status EndTask(Stream* stream);
  Status FinishBuild();
  Status Unbind(Stream* stream);
  Status AppendActivate(Stream* stream, Stream* target);
  Status AppendSwitch(Stream* stream, const SwitchNode& node, Stream* on_true, Stream* on_false);
  Status CleanStream(Stream* stream);

  // --- Replay (graph_replay.cc).
  Status Launch(Stream* stream);
  // Launch, with 64-bit words that the replay writes, in stream order, after the previous replay finished
  // and before its first task: a loaded model binds its inputs and outputs by writing the user's addresses
  // into its operators' argument tables (zero copy), so executions queued back to back each see their own.
  struct Patch {
    void* word;  // device memory the graph's tasks read
    uint64_t value;
  };
  Status LaunchPatched(Stream* stream, const Patch* patches, size_t patch_count);
  Status Execute(int32_t timeout_ms);

  // --- Introspection and update (graph_update.cc).
  std::vector<Stream*> Streams();
  StatusOr<std::vector<HandleObject*>> TasksOf(Stream* stream);
  Status BeginGroup(Stream* stream);
  StatusOr<TaskGroup*> EndGroup(Stream* stream);
  Status BeginGroupUpdate(Stream* update_stream, TaskGroup* group);
  Status EndGroupUpdate(Stream* update_stream);
  Status GetParams(const ModelRITaskHandle& task, aclmdlRITaskParams* params);
  Status SetParams(const ModelRITaskHandle& task, const aclmdlRITaskParams& params);
  Status Disable(const ModelRITaskHandle& task);
  Status ApplyUpdates();
  aclmdlRITaskType TaskType(const ModelRITaskHandle& task);
  Status KernelAttribute(const ModelRITaskHandle& task, aclrtLaunchKernelAttrId id, aclrtLaunchKernelAttrValue* value);

  // --- Conditional tasks (graph_cond.cc).
  Status AddCondTask(Stream* stream, void* cond_handle_obj, aclmdlRICondTaskType type,
                     const std::vector<ModelRI*>& children);
  // The graph's list as a branch of a conditional task: published once the graph is ready (graph_cond.cc).
  const hal::CondBranch* branch() const { return &branch_; }
  void AdoptCondition(HandleObject* handle) { conditions_.push_back(handle); }

  // --- Names, callbacks, debug output.
  void SetName(std::string name);
  std::string name();
  Status AddDestroyCallback(aclrtCallback fn, void* user_data);
  Status RemoveDestroyCallback(aclrtCallback fn);
  Status WriteJson(const char* path, bool verbose);  // graph_debug.cc
  void LogSummary();

  // aclmdlRIDestroy: runs the destroy callbacks and drops the user's reference; children of conditional
  // tasks go with their parent.
  void Destroy();

  // The graph a stream was last recorded into (aclmdlRIGetTasksByStream); retained.
  static ModelRI* OfStream(Stream* stream);

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  friend class ModelRIRecorder;
  ModelRI(Context* context, State state);
  ~ModelRI() override;

  static void ReleaseModelRI(void* graph);
  ModelRIStream* StreamOf(Stream* stream);  // mu_ held
  ModelRIStream& AddStream(Stream* stream, bool standalone);  // mu_ held
  void AppendLocked(ModelRIStream& gs, const hal::Task* tasks, uint32_t count, aclmdlRITaskType type,
                    Event* event);  // mu_ held
  // mu_ held: appends a conditional batch whose condition `node` describes; the graph keeps the node.
  void AppendConditional(ModelRIStream& gs, std::unique_ptr<CondNode> node);
  void Finalize();                      // mu_ held: lists point at the recorded tasks; publishes branch_
  void BuildRunList();                  // mu_ held: Finalize's lists
  void WriteTask(ModelRIStream& gs, uint32_t index, const hal::Task& task);  // mu_ held: sequence lock
  void LeaveStreams();                  // mu_ held: recording streams stop recording
  void ForgetRecords();                 // mu_ held: events recorded while recording forget the graph
  static void ForgetStreams(ModelRI* graph);  // aclmdlRIGetTasksByStream no longer finds the graph

  Context* context_;
  Device* device_;
  uint32_t id_;
  std::atomic<State> state_;
  std::mutex mu_;
  std::vector<std::unique_ptr<ModelRIStream>> streams_;
  uint32_t head_ = 0;
  bool has_head_ = false;  // explicit build: a stream was bound with ACL_MODEL_STREAM_FLAG_HEAD
  CaptureMode mode_ = CaptureMode::kGlobal;
  uint64_t capture_thread_ = 0;
  std::atomic<int32_t> invalid_code_{0};
  std::string invalid_why_;
  // Records of user events: bumped by their count at each launch.
  std::vector<std::pair<Event*, uint32_t>> records_;
  // ModelRI-private flags: one per record of an event inside the recording (waits inside it use them).
  std::vector<std::unique_ptr<hal::Flag>> private_flags_;
  std::vector<std::pair<Event*, hal::Flag*>> last_record_;  // while recording
  std::unordered_map<hal::Flag*, std::pair<ModelRIStream*, uint32_t>> record_source_;  // flag -> stream, node
  // Capture order of the tasks of standalone streams (stream, task), and the replayed list built from it.
  std::vector<std::pair<uint32_t, uint32_t>> order_;
  std::vector<hal::TaskList> runs_;
  std::vector<hal::Task> run_tasks_;
  hal::TaskList run_list_;
  hal::CondBranch branch_{nullptr};  // &run_list_ once ready (Finalize)
  std::unique_ptr<hal::Flag> done_flag_;
  // Concurrent branches (Finalize; model_ri_replay.cc): the joined streams replayed on helper streams
  // (created at the first launch), started by start_flag_, each ending with its end flag (values: the
  // replay number).
  struct Branch {
    uint32_t stream = 0;                  // index into streams_
    std::unique_ptr<hal::Flag> end;
    std::vector<hal::Flag*> records;      // the private flags its list records (released after it runs)
    Stream* helper = nullptr;             // launch_mu_
    std::mutex mu;                        // this replay's failure on the helper, handed to the launching stream
    int32_t error = 0;
    std::string message;
  };
  std::vector<std::unique_ptr<Branch>> branches_;
  std::vector<hal::Flag*> head_records_;  // the private flags the origin's list records
  std::unique_ptr<hal::Flag> start_flag_;
  Status LaunchBranches(Stream* stream, uint64_t replay);  // launch_mu_ held
  static void CaptureBranchError(void* branch, hal::Queue* queue);
  static void ReportBranchErrors(void* graph, hal::Queue* queue);
  std::mutex launch_mu_;
  uint64_t replays_ = 0;   // launch_mu_
  Stream* exec_stream_ = nullptr;  // aclmdlRIExecute (created on first use)
  std::vector<hal::Task> retired_;  // tasks replaced by updates: their cleanups run at destruction
  std::vector<std::unique_ptr<hal::KernelLaunch>> launches_;  // kernel launches made by updates
  std::vector<std::unique_ptr<uint8_t[]>> buffers_;           // their argument blocks
  std::vector<TaskGroup*> groups_;
  std::vector<ModelRI*> children_;        // conditional task branches (retained)
  std::vector<std::unique_ptr<CondNode>> cond_nodes_;  // conditional tasks and switches
  std::vector<HandleObject*> conditions_;  // aclmdlRICondHandle (retained)
  // aclmdlRICaptureTaskUpdateBegin: tasks recorded for a group update.
  TaskGroup* updating_ = nullptr;
  Stream* update_stream_ = nullptr;
  std::vector<hal::Task> update_tasks_;
  std::vector<std::pair<aclrtCallback, void*>> destroy_callbacks_;
  std::string name_;
};

// A conditional batch of a graph: the condition the driver evaluates on the device's side
// (hal::Conditional) and the branches it names: children's lists (aclmdlRIAddCondTask, graph_cond.cc) or
// lists of bound streams that the node publishes itself (aclrtSwitchStream, graph_build.cc).
struct CondNode {
  hal::Conditional desc;
  std::unique_ptr<hal::CondBranch[]> own;        // the node's own branches
  std::vector<const hal::CondBranch*> branches;  // desc.branches
};

// aclrtSwitchStream inside a model: compares two device values, then runs one bound stream's list.
struct SwitchNode {
  const void* left = nullptr;
  const void* right = nullptr;
  aclrtCondition cond = ACL_RT_EQUAL;
  aclrtCompareDataType type = ACL_RT_SWITCH_INT32;
};

}  // namespace npurt::core
