// BatchCursor: walks a kBatch task's lists (hal/task.h) in ACL's order, for any driver that runs batches
// itself: graph replays (aclmdlRIExecuteAsync), conditional batches (if / while / switch, evaluated with
// the driver's `read` of device memory: conditional.h) and nested batches. It yields one leaf task at a time and keeps its place, so a driver whose leaf parks (a wait, a
// host function, a kernel) picks the batch up where it stopped when the queue resumes, and a driver that
// runs every task inline simply loops. Part of the driver emulation layer (src/hal/utils/README.md).
#pragma once

#include <cstdint>

#include "hal/task.h"
#include "hal/utils/conditional.h"

namespace npurt::hal::utils {

class BatchCursor {
 public:
  explicit BatchCursor(ReadWordFn read) : read_(read) {}

  enum class Step {
    kTask,     // *leaf is the next task to run; call Advance() once it finished
    kDone,     // every list ran
    kTooDeep,  // batches nest deeper than kMaxBatchDepth (the batch fails; the cursor is reset)
  };

  // True while a batch is under way (between Begin and its kDone / kTooDeep / Reset).
  bool active() const { return depth_ != 0; }
  // Starts `batch` (a kBatch task). Its Task::value is the base that the kFlagRelative flag signals and
  // waits of every list are offset by (graph replays of event records and waits: each replay moves it).
  void Begin(const Task& batch);
  // The next leaf: descends into nested batches, evaluates a conditional batch's condition again for its
  // next round when a list ends, and leaves finished frames. The same leaf comes back until Advance().
  // Inline, with the leaf read once into *leaf: it runs per task of a graph replay.
  Step Next(Task* leaf) {
    while (depth_ != 0) {
      Frame& f = frames_[depth_ - 1];
      if (f.list == nullptr || f.pos >= f.list->count) {
        EndList(f);
        continue;
      }
      // Each list task is read when reached (ReadTask: a graph update may rewrite the list between replays).
      *leaf = ReadTask(*f.list, f.pos);
      if (leaf->kind == TaskKind::kBatch) {
        if (!Push(*leaf)) {
          depth_ = 0;
          return Step::kTooDeep;
        }
        continue;
      }
      if ((leaf->kind == TaskKind::kFlagSignal || leaf->kind == TaskKind::kFlagWait) &&
          (leaf->aux & kFlagRelative) != 0) {
        leaf->value += base_;
      }
      return Step::kTask;
    }
    return Step::kDone;
  }
  // The leaf returned by Next() finished.
  void Advance() {
    if (depth_ != 0) ++frames_[depth_ - 1].pos;
  }
  // Abandons the batch (a leaf failed: the rest of the lists is skipped).
  void Reset() { depth_ = 0; }

 private:
  struct Frame {
    const TaskList* list;
    uint32_t pos;
    uint32_t round;
    const Conditional* cond;
  };
  bool Push(const Task& batch);
  // A frame's list ended: its next round (a conditional batch), or back to the parent.
  void EndList(Frame& f);

  ReadWordFn read_;
  uint64_t base_ = 0;
  int depth_ = 0;
  Frame frames_[kMaxBatchDepth];
};

}  // namespace npurt::hal::utils
