// Chaos: four threads call the API at random on shared pools of streams, events, notifies and device
// buffers, and destroy and replace pool members as they go, so that an object is often destroyed by one
// thread while another is inside a call on it (issue 14, part 4). Such a program is wrong, but it must not
// take the process down: every call returns success or a documented error code (a stale handle gets
// ACL_ERROR_RT_INVALID_HANDLE with a message), and at the end every live object is destroyed cleanly.
//
// Bounded: an iteration count per thread and a time cap of a few seconds, whichever comes first. Waits in
// the mix all have timeouts, so a wait whose record was discarded by a forced destroy cannot hang a stream.
#include <cstdio>
#include <mutex>
#include <set>

#include "test_util.h"

namespace cts {
namespace {

using ChaosTest = CtsTest;

constexpr int kThreads = 4;
constexpr int kPool = 4;  // members per pool: small, so threads collide on the same objects
constexpr int kItersPerThread = 6000;
constexpr auto kTimeCap = std::chrono::seconds(3);
constexpr size_t kBufBytes = 16 << 10;
constexpr int32_t kWaitMs = 20;

// The codes a call in the mix may return. Stale or destroyed handles: 107017 (or 100000 for a null or
// foreign one). Memory calls racing an aclrtFree of their buffer: the range checks' parameter errors.
// Waits: their timeouts. A stream whose wait timed out fails its later synchronisations with the wait's
// timeout code (a sticky error), and a forced destroy may report its discarded work to a synchroniser.
const std::set<aclError>& DocumentedCodes() {
  static const std::set<aclError> codes = {
      ACL_SUCCESS,
      ACL_ERROR_INVALID_PARAM,
      ACL_ERROR_RT_PARAM_INVALID,
      ACL_ERROR_RT_INVALID_HANDLE,
      ACL_ERROR_RT_INVALID_MEMORY_TYPE,
      ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
      ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
      ACL_ERROR_RT_WAIT_TIMEOUT,
      ACL_ERROR_RT_TASK_TIMEOUT,
      ACL_ERROR_RT_STREAM_ABORT,
      ACL_ERROR_RT_AICORE_TIMEOUT,
  };
  return codes;
}

// A pool of handles shared by all threads. A slot is read without a lock (a thread may use a member that
// another thread is destroying at that moment: that is the point); replacing it is a compare-exchange, so
// exactly one thread destroys the old member.
template <typename H>
struct ChaosPool {
  std::atomic<H> slot[kPool];
  H Pick(std::mt19937& rng) { return slot[rng() % kPool].load(std::memory_order_acquire); }
  // Installs `fresh` in place of `old` at `i`; true if this thread now owns `old` (and must destroy it).
  bool Replace(int i, H old, H fresh) { return slot[i].compare_exchange_strong(old, fresh); }
};

struct Shared {
  ChaosPool<aclrtStream> streams;
  ChaosPool<aclrtEvent> events;
  ChaosPool<aclrtNotify> notifies;
  ChaosPool<void*> bufs;
  // Host side of each thread's copies: pageable, alive until every stream is gone (a copy queued by one thread
  // may run after that thread finished, on a stream another thread destroys later).
  std::vector<uint8_t> host[kThreads];
  std::mutex mu;
  std::map<aclError, std::string> unexpected;  // code -> the call and message that returned it
  std::atomic<int> calls{0};
  std::atomic<int> stale_rejections{0};
  std::atomic<int> stale_without_message{0};
};

// Checks one result: documented codes only; a stale-handle rejection carries a message.
void Check(Shared& sh, const char* what, aclError rc) {
  sh.calls.fetch_add(1, std::memory_order_relaxed);
  const char* msg = rc == ACL_SUCCESS ? nullptr : aclGetRecentErrMsg();
  if (rc == ACL_ERROR_RT_INVALID_HANDLE) {
    sh.stale_rejections.fetch_add(1, std::memory_order_relaxed);
    if (msg == nullptr || std::strstr(msg, "handle") == nullptr) sh.stale_without_message.fetch_add(1);
  }
  if (DocumentedCodes().count(rc) == 0) {
    std::lock_guard<std::mutex> lock(sh.mu);
    sh.unexpected.emplace(rc, std::string(what) + ": " + (msg ? msg : "(no message)"));
  }
}

void Worker(Shared& sh, aclrtContext ctx, int t, std::chrono::steady_clock::time_point deadline) {
  if (aclrtSetCurrentContext(ctx) != ACL_SUCCESS) {
    Check(sh, "aclrtSetCurrentContext", ACL_ERROR_FAILURE);
    return;
  }
  std::mt19937 rng(0xC4A05u + static_cast<unsigned>(t));
  std::vector<uint8_t>& host = sh.host[t];
  aclrtStream remembered_stream = sh.streams.Pick(rng);
  aclrtEvent remembered_event = sh.events.Pick(rng);
  for (int it = 0; it < kItersPerThread && std::chrono::steady_clock::now() < deadline; ++it) {
    const int i = static_cast<int>(rng() % kPool);
    aclrtStream s = sh.streams.Pick(rng);
    aclrtEvent e = sh.events.Pick(rng);
    // Now and then a handle picked a few iterations ago, which another thread has often destroyed since.
    if (rng() % 8 == 0) {
      std::swap(s, remembered_stream);
      std::swap(e, remembered_event);
    } else if (rng() % 8 == 0) {
      remembered_stream = s;
      remembered_event = e;
    }
    const size_t n = 1 + rng() % kBufBytes;
    switch (rng() % 16) {
      case 0:
      case 1:
        Check(sh, "aclrtMemcpyAsync H2D",
              aclrtMemcpyAsync(sh.bufs.Pick(rng), kBufBytes, host.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
        break;
      case 2:
        Check(sh, "aclrtMemcpyAsync D2D", aclrtMemcpyAsync(sh.bufs.Pick(rng), kBufBytes, sh.bufs.Pick(rng), n,
                                                           ACL_MEMCPY_DEVICE_TO_DEVICE, s));
        break;
      case 3:
        Check(sh, "aclrtMemsetAsync", aclrtMemsetAsync(sh.bufs.Pick(rng), kBufBytes, t + 1, n, s));
        break;
      case 4:
        Check(sh, "aclrtRecordEvent", aclrtRecordEvent(e, s));
        break;
      case 5:
        Check(sh, "aclrtStreamWaitEventWithTimeout", aclrtStreamWaitEventWithTimeout(s, e, kWaitMs));
        break;
      case 6: {
        aclrtEventRecordedStatus status;
        Check(sh, "aclrtQueryEventStatus", aclrtQueryEventStatus(e, &status));
        break;
      }
      case 7:
        Check(sh, "aclrtSynchronizeEventWithTimeout", aclrtSynchronizeEventWithTimeout(e, kWaitMs));
        break;
      case 8:
        Check(sh, "aclrtSynchronizeStreamWithTimeout", aclrtSynchronizeStreamWithTimeout(s, kWaitMs));
        break;
      case 9:
        Check(sh, "aclrtRecordNotify", aclrtRecordNotify(sh.notifies.Pick(rng), s));
        break;
      case 10: {
        aclrtStream fresh = nullptr;
        Check(sh, "aclrtCreateStream", aclrtCreateStream(&fresh));
        if (fresh == nullptr) break;
        aclrtStream old = sh.streams.slot[i].load();
        if (!sh.streams.Replace(i, old, fresh)) {
          Check(sh, "aclrtDestroyStream (lost replace)", aclrtDestroyStream(fresh));
          break;
        }
        if (rng() % 2 == 0) {
          Check(sh, "aclrtDestroyStreamForce", aclrtDestroyStreamForce(old));
        } else {
          Check(sh, "aclrtDestroyStream", aclrtDestroyStream(old));
        }
        break;
      }
      case 11: {
        aclrtEvent fresh = nullptr;
        Check(sh, "aclrtCreateEventExWithFlag", aclrtCreateEventExWithFlag(&fresh, ACL_EVENT_SYNC));
        if (fresh == nullptr) break;
        aclrtEvent old = sh.events.slot[i].load();
        if (!sh.events.Replace(i, old, fresh)) {
          Check(sh, "aclrtDestroyEvent (lost replace)", aclrtDestroyEvent(fresh));
          break;
        }
        Check(sh, "aclrtDestroyEvent", aclrtDestroyEvent(old));
        break;
      }
      case 12: {
        aclrtNotify fresh = nullptr;
        Check(sh, "aclrtCreateNotify", aclrtCreateNotify(&fresh, 0));
        if (fresh == nullptr) break;
        aclrtNotify old = sh.notifies.slot[i].load();
        if (!sh.notifies.Replace(i, old, fresh)) {
          Check(sh, "aclrtDestroyNotify (lost replace)", aclrtDestroyNotify(fresh));
          break;
        }
        Check(sh, "aclrtDestroyNotify", aclrtDestroyNotify(old));
        break;
      }
      case 13: {
        void* fresh = nullptr;
        Check(sh, "aclrtMalloc", aclrtMalloc(&fresh, kBufBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        if (fresh == nullptr) break;
        void* old = sh.bufs.slot[i].load();
        if (!sh.bufs.Replace(i, old, fresh)) {
          Check(sh, "aclrtFree (lost replace)", aclrtFree(fresh));
          break;
        }
        // Wait for the queued copies first: freeing memory that queued work still uses corrupts the data of
        // whoever gets it next (a user bug with no handle to reject), unlike the handle races above.
        Check(sh, "aclrtSynchronizeStreamWithTimeout", aclrtSynchronizeStreamWithTimeout(s, kWaitMs));
        Check(sh, "aclrtFree", aclrtFree(old));
        break;
      }
      case 14: {
        int32_t id = 0;
        Check(sh, "aclrtStreamGetId", aclrtStreamGetId(s, &id));
        break;
      }
      default:
        Check(sh, "aclrtResetEvent", aclrtResetEvent(e, s));
        break;
    }
  }
}

TEST_F(ChaosTest, RandomCallsWithConcurrentDestroysNeverCrash) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  Shared sh;
  for (int t = 0; t < kThreads; ++t) sh.host[t] = RandomBytes(kBufBytes, 77 + t);
  for (int j = 0; j < kPool; ++j) {
    aclrtStream s = nullptr;
    aclrtEvent e = nullptr;
    aclrtNotify nt = nullptr;
    void* b = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&s));
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
    ASSERT_ACL_OK(aclrtCreateNotify(&nt, 0));
    ASSERT_ACL_OK(aclrtMalloc(&b, kBufBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    sh.streams.slot[j].store(s);
    sh.events.slot[j].store(e);
    sh.notifies.slot[j].store(nt);
    sh.bufs.slot[j].store(b);
  }
  const auto deadline = std::chrono::steady_clock::now() + kTimeCap;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&sh, ctx, t, deadline] { Worker(sh, ctx, t, deadline); });
  for (auto& th : threads) th.join();

  std::printf("chaos: %d calls, %d stale-handle rejections\n", sh.calls.load(), sh.stale_rejections.load());
  for (const auto& [code, what] : sh.unexpected) ADD_FAILURE() << "undocumented code " << code << " from " << what;
  EXPECT_EQ(0, sh.stale_without_message.load()) << "stale-handle rejections without a message naming the handle";
  EXPECT_GT(sh.calls.load(), 1000);
  // Every live object is destroyed cleanly, and its handle is stale afterwards.
  for (int j = 0; j < kPool; ++j) {
    aclrtStream s = sh.streams.slot[j].load();
    EXPECT_ACL_OK(aclrtDestroyStreamForce(s));
    EXPECT_ACL_OK(aclrtDestroyEvent(sh.events.slot[j].load()));
    EXPECT_ACL_OK(aclrtDestroyNotify(sh.notifies.slot[j].load()));
    EXPECT_ACL_OK(aclrtFree(sh.bufs.slot[j].load()));
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_HANDLE, aclrtSynchronizeStream(s));
    const char* msg = aclGetRecentErrMsg();
    EXPECT_NE(nullptr, msg);
  }
  EXPECT_ACL_OK(aclrtSynchronizeDevice());
}

}  // namespace
}  // namespace cts
