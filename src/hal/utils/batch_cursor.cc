#include "hal/utils/batch_cursor.h"

namespace npurt::hal::utils {

bool BatchCursor::Push(const Task& batch) {
  if (depth_ == kMaxBatchDepth) return false;
  Frame& f = frames_[depth_++];
  f.pos = 0;
  f.round = 0;
  f.cond = batch.cond;
  // A conditional batch's first list is round 0 of its condition; null means nothing runs.
  f.list = batch.cond != nullptr ? SelectBranch(*batch.cond, 0, read_) : batch.batch;
  return true;
}

void BatchCursor::Begin(const Task& batch) {
  depth_ = 0;
  base_ = batch.value;
  Push(batch);  // cannot fail: the cursor was empty
}

void BatchCursor::EndList(Frame& f) {
  // A conditional batch selects its next round (a loop's next iteration, or null).
  if (f.list != nullptr && f.cond != nullptr) {
    f.list = SelectBranch(*f.cond, ++f.round, read_);
    f.pos = 0;
    if (f.list != nullptr) return;
  }
  if (--depth_ != 0) ++frames_[depth_ - 1].pos;  // the nested batch is its parent's finished task
}

}  // namespace npurt::hal::utils
