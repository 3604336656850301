// Small pieces shared by the Gloo transport's operations (gloo_ops.h): deadlines as Gloo timeouts, Gloo's
// exceptions as HcclResult errors, closing a context from another thread, and GlooExchange — a set of
// point-to-point messages over Gloo's unbound buffers. Private to npurt; includes Gloo's headers.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <gloo/context.h>
#include <gloo/transport/unbound_buffer.h>

#include "base/status.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {

// Slot prefixes of npurt's own messages (the top byte of a Gloo slot). Gloo's collectives use 0x01-0x08
// (gloo/types.h); a slot keeps messages of different purposes between two ranks from pairing up.
enum class GlooSlot : uint8_t {
  kP2pSendHeader = 0x41,  // a send's size, sender -> receiver
  kP2pRecvHeader = 0x42,  // a receive's size, receiver -> sender
  kP2pData = 0x43,
  kCollective = 0x44,     // the direct exchanges of AllGatherV, Scatter, AlltoAll(V, VC)
  kRing = 0x45,           // ReduceScatter's ring
  kAgreement = 0x46,      // GlooOps::AllGatherBytes: the agreement headers, AlltoAllV's counts, addresses
};

// A deadline (base/clock.h) as a Gloo timeout: relative, at least 1 ms (Gloo treats 0 as "already
// late"), and 30 days for "no deadline".
std::chrono::milliseconds GlooTimeout(uint64_t deadline_ns);

// The error for an exception out of Gloo during `what`; `peer` is the rank involved when known (-1 if
// not): HCCL_E_TIMEOUT, HCCL_E_REMOTE (the peer's connection closed), HCCL_E_TCP_TRANSFER, or
// HCCL_E_INTERNAL (a Gloo invariant, anything else).
Status GlooError(const std::exception& e, const std::string& what, int peer);

// Runs `fn` (which calls into Gloo) and turns what it throws into GlooError.
template <typename Fn>
Status GlooGuard(const std::string& what, int peer, Fn&& fn) {
  try {
    fn();
    return Status();
  } catch (const std::exception& e) {
    return GlooError(e, what, peer);
  } catch (...) {
    return Err(HCCL_E_INTERNAL, "{}: an unknown exception came out of Gloo", what);
  }
}

// Fails every operation pending on `context`'s connections (they throw gloo::IoException "Application
// timeout caused pair closure") and closes them: what Gloo itself does when a wait times out. The peers
// see their connections to this rank close. Any thread; takes about a millisecond.
void GlooCloseAll(gloo::Context& context);

// Sends and receives of byte ranges, all posted before any is waited for, so that they cannot hold each
// other up; then waited for in the order posted. Between two ranks, the messages on one slot pair up in
// the order each side posts them. Zero-byte messages are skipped (both sides know the size). A message to
// or from this rank itself is the caller's copy, not a message. Not thread-safe.
class GlooExchange {
 public:
  explicit GlooExchange(gloo::Context& context) : context_(context) {}
  // Posting cannot block; a failure is kept and returned by Wait (later posts are skipped).
  void Send(GlooSlot slot, uint32_t peer, const void* data, size_t bytes);
  void Recv(GlooSlot slot, uint32_t peer, void* data, size_t bytes);
  // Waits until every message posted is complete, or the deadline passes (HCCL_E_TIMEOUT naming every
  // peer whose messages were not through); `what` names the operation in errors. After an error the
  // context is closed (Gloo's own doing on a timeout; the caller's otherwise).
  Status Wait(uint64_t deadline_ns, const std::string& what);

 private:
  struct Message {
    std::unique_ptr<gloo::transport::UnboundBuffer> buffer;
    uint32_t peer;
    bool send;
  };
  void Post(GlooSlot slot, uint32_t peer, void* data, size_t bytes, bool send);

  gloo::Context& context_;
  std::vector<Message> messages_;
  Status posting_;  // the first failure to post
};

}  // namespace npurt::hccl
