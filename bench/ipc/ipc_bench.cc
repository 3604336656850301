// Round trips between two processes through shared device-side flags (issue 7).
//
// ipc_event_roundtrip_us  process A (this benchmark) records `ping` on its stream and waits for `pong`;
//                         process B (this executable re-run as a peer) waits for `ping` and records
//                         `pong` back; A synchronizes its stream. One sample per round trip.
//                         The pair are inter-process notifies: they ride the same shared flags as IPC
//                         events (hal::Device::CreateSharedFlag), and a notify wait consumes one record,
//                         so B can queue its waits ahead without racing A's records (an event wait
//                         targets the record count at the time of the wait).
// ipc_local_roundtrip_us  the same protocol between two streams of this process (no process boundary).
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "common/bench_util.h"

extern char** environ;

namespace npurt_bench {
namespace {

constexpr const char* kPeerEnv = "NPURT_BENCH_IPC_PEER";

// Peer process: answers every ping with a pong until it is killed.
[[noreturn]] void RunPeer(const char* keys) {
  char ping_key[128] = {}, pong_key[128] = {};
  if (std::sscanf(keys, "%127s %127s", ping_key, pong_key) != 2) std::_Exit(2);
  BENCH_CHECK(aclInit(nullptr));
  BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  BENCH_CHECK(aclrtCreateStream(&stream));
  aclrtNotify ping = nullptr, pong = nullptr;
  BENCH_CHECK(aclrtNotifyImportByKey(&ping, ping_key, 0));
  BENCH_CHECK(aclrtNotifyImportByKey(&pong, pong_key, 0));
  // Queue the answers ahead, each wait consuming one ping, in chunks: the host waits for the chunk before
  // the previous one (an event), so that it wakes once per chunk rather than, blocked on a full stream,
  // once per answer (a wake-up per round trip that would compete with the round trip for the cores).
  constexpr int kChunk = 64;
  aclrtEvent marks[2] = {nullptr, nullptr};
  for (aclrtEvent& m : marks) BENCH_CHECK(aclrtCreateEvent(&m));
  for (uint64_t n = 0;; ++n) {
    aclrtEvent mark = marks[n % 2];
    if (n >= 2) BENCH_CHECK(aclrtSynchronizeEvent(mark));
    for (int i = 0; i < kChunk; ++i) {
      BENCH_CHECK(aclrtWaitAndResetNotify(ping, stream, 0));
      BENCH_CHECK(aclrtRecordNotify(pong, stream));
    }
    BENCH_CHECK(aclrtRecordEvent(mark, stream));
  }
}

// Runs RunPeer before main() when this executable was started as the peer.
const bool g_peer_check = [] {
  if (const char* keys = std::getenv(kPeerEnv)) RunPeer(keys);
  return true;
}();

struct Pair {
  aclrtStream stream = nullptr;
  aclrtNotify ping = nullptr;
  aclrtNotify pong = nullptr;
  Pair() {
    UseDevice0();
    BENCH_CHECK(aclrtCreateStream(&stream));
    BENCH_CHECK(aclrtCreateNotify(&ping, 0));
    BENCH_CHECK(aclrtCreateNotify(&pong, 0));
  }
  ~Pair() {
    BENCH_CHECK(aclrtDestroyNotify(ping));
    BENCH_CHECK(aclrtDestroyNotify(pong));
    BENCH_CHECK(aclrtDestroyStream(stream));
  }
  void RoundTrips(benchmark::State& state) {
    Sampler sampler(state);
    for (auto _ : state) {
      const uint64_t t0 = NowNs();
      BENCH_CHECK(aclrtRecordNotify(ping, stream));
      BENCH_CHECK(aclrtWaitAndResetNotify(pong, stream, 0));
      BENCH_CHECK(aclrtSynchronizeStream(stream));
      sampler.Add(NowNs() - t0);
    }
  }
};

std::string ExportKey(aclrtNotify n) {
  char key[128] = {};
  BENCH_CHECK(aclrtNotifyGetExportKey(n, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  return key;
}

void IpcRoundTrip(benchmark::State& state) {
  Pair p;
  const std::string env = std::string(kPeerEnv) + "=" + ExportKey(p.ping) + " " + ExportKey(p.pong);
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  envp.push_back(const_cast<char*>(env.c_str()));
  envp.push_back(nullptr);
  char exe[] = "/proc/self/exe";
  char* argv[] = {exe, nullptr};
  pid_t peer = 0;
  if (posix_spawn(&peer, exe, nullptr, nullptr, argv, envp.data()) != 0) {
    state.SkipWithError("cannot start the peer process");
    return;
  }
  p.RoundTrips(state);
  kill(peer, SIGKILL);
  waitpid(peer, nullptr, 0);
}
BENCHMARK(IpcRoundTrip)->Name("ipc_event_roundtrip_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

void LocalRoundTrip(benchmark::State& state) {
  Pair p;
  aclrtStream peer = nullptr;
  BENCH_CHECK(aclrtCreateStream(&peer));
  // The peer stream's answers, queued in batches ahead of the pings (as the peer process does).
  uint64_t queued = 0;
  Sampler sampler(state);
  for (auto _ : state) {
    if (queued == 0) {
      for (int i = 0; i < 64; ++i) {
        BENCH_CHECK(aclrtWaitAndResetNotify(p.ping, peer, 0));
        BENCH_CHECK(aclrtRecordNotify(p.pong, peer));
      }
      queued = 64;
    }
    const uint64_t t0 = NowNs();
    BENCH_CHECK(aclrtRecordNotify(p.ping, p.stream));
    BENCH_CHECK(aclrtWaitAndResetNotify(p.pong, p.stream, 0));
    BENCH_CHECK(aclrtSynchronizeStream(p.stream));
    sampler.Add(NowNs() - t0);
    --queued;
  }
  // Release the answers still queued, then tidy up.
  for (; queued > 0; --queued) BENCH_CHECK(aclrtRecordNotify(p.ping, p.stream));
  BENCH_CHECK(aclrtSynchronizeStream(peer));
  BENCH_CHECK(aclrtDestroyStream(peer));
}
BENCHMARK(LocalRoundTrip)->Name("ipc_local_roundtrip_us")->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace npurt_bench
