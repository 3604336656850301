#include "hccl/net/gloo_exchange.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <gloo/common/error.h>
#include <gloo/common/logging.h>
#include <gloo/types.h>

#include "base/clock.h"

namespace npurt::hccl {
namespace {

constexpr int64_t kNoDeadlineMs = int64_t{30} * 24 * 3600 * 1000;

bool Contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

// Slot prefix of the receive GlooCloseAll posts and never completes.
constexpr uint8_t kCloseSlot = 0x4f;

}  // namespace

std::chrono::milliseconds GlooTimeout(uint64_t deadline_ns) {
  if (deadline_ns == UINT64_MAX) return std::chrono::milliseconds(kNoDeadlineMs);
  const uint64_t now = NowNs();
  if (now >= deadline_ns) return std::chrono::milliseconds(1);
  const uint64_t ms = (deadline_ns - now + 999'999) / 1'000'000;
  return std::chrono::milliseconds(std::min<uint64_t>(ms, kNoDeadlineMs));
}

Status GlooError(const std::exception& e, const std::string& what, int peer) {
  const std::string raw = e.what();
  const std::string who = peer >= 0 ? fmt::format("rank {}", peer) : std::string("a peer");
  if (dynamic_cast<const gloo::IoException*>(&e) != nullptr) {
    // Gloo prefixes "[source file:line] ", which says nothing to a user.
    const size_t cut = raw.empty() || raw[0] != '[' ? std::string::npos : raw.find("] ");
    const std::string text = cut == std::string::npos ? raw : raw.substr(cut + 2);
    if (Contains(text, "Timed out") || Contains(text, "timeout")) {
      return Err(HCCL_E_TIMEOUT, "{}: {} did not take part before the deadline (HCCL_EXEC_TIMEOUT): {}", what, who,
                 text);
    }
    if (Contains(text, "closed by peer") || Contains(text, "reset by peer") || Contains(text, "Socket closed") ||
        Contains(text, "Broken pipe")) {
      return Err(HCCL_E_REMOTE, "{}: the connection to {} closed (its process ended, or its communicator failed or was "
                 "destroyed): {}", what, who, text);
    }
    return Err(HCCL_E_TCP_TRANSFER, "{}: transfer with {} failed: {}", what, who, text);
  }
  if (dynamic_cast<const gloo::EnforceNotMet*>(&e) != nullptr) {
    return Err(HCCL_E_INTERNAL, "{}: Gloo refused the operation: {}", what, raw);
  }
  return Err(HCCL_E_INTERNAL, "{}: {}", what, raw);
}

void GlooCloseAll(gloo::Context& context) {
  // Gloo's call that fails every pending operation and closes every pair (tcp::Context::signalException) is
  // protected, and its public Pair::close leaves this rank's own waits to run into their timeouts. What
  // reaches it through the public API is Gloo's timeout path: a receive that times out signals the whole
  // context. So post one that nothing will ever match and let it time out.
  char byte = 0;
  for (int peer = 0; peer < context.size; ++peer) {
    if (peer == context.rank) continue;
    bool posted = false;
    try {
      auto probe = context.createUnboundBuffer(&byte, 1);
      probe->recv(peer, gloo::Slot::build(kCloseSlot, 0));
      posted = true;
      probe->waitRecv(nullptr, std::chrono::milliseconds(1));
    } catch (const std::exception&) {
      // Either the timeout did its work, or this pair was closed already and another must carry the probe.
    }
    if (posted) return;
  }
}

void GlooExchange::Send(GlooSlot slot, uint32_t peer, const void* data, size_t bytes) {
  // Gloo's buffers are not const-qualified; a send only reads.
  Post(slot, peer, const_cast<void*>(data), bytes, true);
}

void GlooExchange::Recv(GlooSlot slot, uint32_t peer, void* data, size_t bytes) {
  Post(slot, peer, data, bytes, false);
}

void GlooExchange::Post(GlooSlot slot, uint32_t peer, void* data, size_t bytes, bool send) {
  if (!posting_.ok() || bytes == 0) return;
  const std::string what = fmt::format("posting a {} rank {}", send ? "send to" : "receive from", peer);
  posting_ = GlooGuard(what, static_cast<int>(peer), [&] {
    auto buffer = context_.createUnboundBuffer(data, bytes);
    const uint64_t id = gloo::Slot::build(static_cast<uint8_t>(slot), 0);
    if (send) {
      buffer->send(static_cast<int>(peer), id);
    } else {
      buffer->recv(static_cast<int>(peer), id);
    }
    messages_.push_back(Message{std::move(buffer), peer, send});
  });
}

Status GlooExchange::Wait(uint64_t deadline_ns, const std::string& what) {
  // A post that failed leaves the earlier ones without their counterpart: do not wait for them.
  if (!posting_.ok()) return Status(posting_.code(), fmt::format("{}: {}", what, posting_.message()));
  Status first;
  std::set<uint32_t> late;  // peers whose messages were not through when the deadline passed
  for (Message& m : messages_) {
    // Once a wait has timed out Gloo has failed every pending message: the rest answer at once, done or not.
    const uint64_t deadline = first.ok() ? deadline_ns : 0;
    bool completed = true;
    Status s = GlooGuard(what, static_cast<int>(m.peer), [&] {
      completed = m.send ? m.buffer->waitSend(nullptr, GlooTimeout(deadline))
                         : m.buffer->waitRecv(nullptr, GlooTimeout(deadline));
    });
    if (s.ok() && completed) continue;
    if (s.ok()) s = Err(HCCL_E_INTERNAL, "{}: the wait for rank {} was cut short", what, m.peer);
    if (!first.ok()) {
      late.insert(m.peer);
      continue;
    }
    // A closed connection fails only that peer's messages; the others' waits would run to the deadline.
    if (s.code() != HCCL_E_TIMEOUT) return s;
    first = std::move(s);
    late.insert(m.peer);
  }
  if (first.ok()) {
    messages_.clear();
    return Status();
  }
  std::string ranks;
  for (uint32_t r : late) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
  return Err(HCCL_E_TIMEOUT, "{}: rank{} {} did not take part before the deadline (HCCL_EXEC_TIMEOUT)", what,
             late.size() > 1 ? "s" : "", ranks);
}

}  // namespace npurt::hccl
