// Parking: a sim queue whose head task must wait (for a flag, a memory value, a host function)
// leaves the executor and registers at a ParkSite. The site resumes it when the condition holds;
// the timer or a discard may instead cancel the registration and resume it with an error.
#pragma once

#include <cstdint>

namespace npurt::drivers::sim {

class SimQueue;

class ParkSite {
 public:
  // Removes the registration (queue, token) if it is still present; true if removed — the caller
  // then owns resuming the queue.
  virtual bool Cancel(SimQueue* queue, uint64_t token) = 0;

 protected:
  ~ParkSite() = default;
};

}  // namespace npurt::drivers::sim
