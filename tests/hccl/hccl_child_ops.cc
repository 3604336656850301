// Scenarios of the rank processes (hccl_child.cc): every operation across processes, and ranks that share
// processes with some peers and not with others. Every rank process computes every rank's inputs from
// seeds, so each checks its own results against a host reference.
#include <acl/acl.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "hccl_child_scenarios.h"
#include "hccl_test_util.h"

namespace npurt_hccl_test {
namespace {

using Bytes = std::vector<uint8_t>;

std::vector<Bytes> Inputs(uint32_t seed, uint32_t n, HcclDataType t, size_t count, bool for_product = false) {
  std::vector<Bytes> in;
  for (uint32_t r = 0; r < n; ++r) {
    std::mt19937 rng(seed * 131 + r);
    in.push_back(RandomElements(t, count, rng, for_product));
  }
  return in;
}

Bytes Slice(const Bytes& v, size_t from, size_t count, size_t es) {
  return Bytes(v.begin() + static_cast<std::ptrdiff_t>(from * es), v.begin() + static_cast<std::ptrdiff_t>((from + count) * es));
}

void Append(Bytes* out, const Bytes& more) { out->insert(out->end(), more.begin(), more.end()); }

int AllReduces(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream stream) {
  uint32_t seed = 1;
  const HcclDataType types[] = {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_BFP16, HCCL_DATA_TYPE_INT8,
                                HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_FP64, HCCL_DATA_TYPE_UINT8};
  const HcclReduceOp ops[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
  for (HcclDataType t : types) {
    for (HcclReduceOp op : ops) {
      if (op == HCCL_REDUCE_PROD && t == HCCL_DATA_TYPE_BFP16) continue;  // refused, as HCCL does
      for (size_t count : {size_t{300}, size_t{9000}}) {  // one reduction per rank; reduce-scatter + all-gather
        const auto in = Inputs(seed++, n, t, count, op == HCCL_REDUCE_PROD);
        const size_t bytes = count * TypeSize(t);
        DeviceBuffer send(bytes, &in[rank]), recv(bytes);
        CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, t, op, comm, stream) == HCCL_SUCCESS);
        CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHILD_CHECK(recv.Read() == ReferenceReduce(t, op, in));
      }
    }
  }
  // In place, large and small.
  for (size_t count : {size_t{100}, size_t{50000}}) {
    const auto in = Inputs(seed++, n, HCCL_DATA_TYPE_FP32, count);
    DeviceBuffer buf(count * 4, &in[rank]);
    CHILD_CHECK(HcclAllReduce(buf.ptr, buf.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(buf.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, in));
  }
  // Buffers that come and go (the views of peers' buffers must follow their pages), one of 40 MiB.
  std::mt19937 sizes(77);
  for (int i = 0; i < 5; ++i) {
    const size_t count = i == 4 ? (40u << 20) / 4 : 1000 + sizes() % (3u << 18);
    const auto in = Inputs(seed++, n, HCCL_DATA_TYPE_FP32, count);
    DeviceBuffer pad((i + 1) * (1u << 20));  // shifts later blocks to other pages
    DeviceBuffer send(count * 4, &in[rank]), recv(count * 4);
    CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, in));
  }
  return 0;
}

int RootedAndGathers(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream stream) {
  const size_t count = 777;
  // Reduce to rank 1 % n; the other ranks' receive buffers stay as they were.
  {
    const auto in = Inputs(40, n, HCCL_DATA_TYPE_FP32, count);
    const uint32_t root = 1 % n;
    const Bytes before(count * 4, 0x5a);
    DeviceBuffer send(count * 4, &in[rank]), recv(count * 4, &before);
    CHILD_CHECK(HcclReduce(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, root, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == (rank == root ? ReferenceReduce(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, in) : before));
  }
  // Broadcast from the last rank.
  {
    const auto in = Inputs(41, n, HCCL_DATA_TYPE_INT32, count);
    DeviceBuffer buf(count * 4, &in[rank]);
    CHILD_CHECK(HcclBroadcast(buf.ptr, count, HCCL_DATA_TYPE_INT32, n - 1, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(buf.Read() == in[n - 1]);
  }
  // AllGather, then in place (rank r's block of the receive buffer is its input).
  {
    const auto in = Inputs(42, n, HCCL_DATA_TYPE_FP16, count);
    Bytes all;
    for (const Bytes& b : in) Append(&all, b);
    DeviceBuffer send(count * 2, &in[rank]), recv(all.size());
    CHILD_CHECK(HcclAllGather(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_FP16, comm, stream) == HCCL_SUCCESS);
    Bytes mine(all.size(), 0);
    std::copy(in[rank].begin(), in[rank].end(), mine.begin() + static_cast<std::ptrdiff_t>(rank * count * 2));
    DeviceBuffer in_place(all.size(), &mine);
    void* my_block = static_cast<uint8_t*>(in_place.ptr) + rank * count * 2;
    CHILD_CHECK(HcclAllGather(my_block, in_place.ptr, count, HCCL_DATA_TYPE_FP16, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == all);
    CHILD_CHECK(in_place.Read() == all);
  }
  // AllGatherV: rank j sends 100 + 37 j elements, placed with 5 elements between blocks.
  {
    std::vector<uint64_t> counts(n), displs(n);
    uint64_t at = 0;
    for (uint32_t j = 0; j < n; ++j) counts[j] = 100 + 37 * j, displs[j] = at, at += counts[j] + 5;
    std::vector<Bytes> in;
    for (uint32_t j = 0; j < n; ++j) in.push_back(Inputs(43, n, HCCL_DATA_TYPE_INT32, counts[j])[j]);
    Bytes expected(at * 4, 0x11);
    for (uint32_t j = 0; j < n; ++j) std::copy(in[j].begin(), in[j].end(), expected.begin() + static_cast<std::ptrdiff_t>(displs[j] * 4));
    const Bytes filler(at * 4, 0x11);
    DeviceBuffer send(counts[rank] * 4, &in[rank]), recv(at * 4, &filler);
    CHILD_CHECK(HcclAllGatherV(send.ptr, counts[rank], recv.ptr, counts.data(), displs.data(), HCCL_DATA_TYPE_INT32, comm,
                               stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == expected);
  }
  // Scatter from rank 0 (the others pass no send buffer).
  {
    const auto in = Inputs(44, 1, HCCL_DATA_TYPE_FP32, count * n);
    DeviceBuffer send(rank == 0 ? count * n * 4 : 0, rank == 0 ? &in[0] : nullptr), recv(count * 4);
    CHILD_CHECK(HcclScatter(rank == 0 ? send.ptr : nullptr, recv.ptr, count, HCCL_DATA_TYPE_FP32, 0, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == Slice(in[0], rank * count, count, 4));
  }
  return 0;
}

int Scatters(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream stream) {
  const size_t count = 513;
  // ReduceScatter: block b of every rank's buffer reduces into rank b; then in place.
  {
    const auto in = Inputs(50, n, HCCL_DATA_TYPE_BFP16, count * n);
    std::vector<Bytes> blocks;
    for (uint32_t j = 0; j < n; ++j) blocks.push_back(Slice(in[j], rank * count, count, 2));
    const Bytes expected = ReferenceReduce(HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MAX, blocks);
    DeviceBuffer send(in[rank].size(), &in[rank]), recv(count * 2), in_place(in[rank].size(), &in[rank]);
    CHILD_CHECK(HcclReduceScatter(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MAX, comm, stream) == HCCL_SUCCESS);
    void* my_block = static_cast<uint8_t*>(in_place.ptr) + rank * count * 2;
    CHILD_CHECK(HcclReduceScatter(in_place.ptr, my_block, count, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MAX, comm, stream) ==
                HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == expected);
    CHILD_CHECK(Slice(in_place.Read(), rank * count, count, 2) == expected);
  }
  // ReduceScatterV: block j has 20 + 11 j elements, packed.
  {
    std::vector<uint64_t> counts(n), displs(n);
    uint64_t total = 0;
    for (uint32_t j = 0; j < n; ++j) counts[j] = 20 + 11 * j, displs[j] = total, total += counts[j];
    const auto in = Inputs(51, n, HCCL_DATA_TYPE_INT32, total);
    std::vector<Bytes> blocks;
    for (uint32_t j = 0; j < n; ++j) blocks.push_back(Slice(in[j], displs[rank], counts[rank], 4));
    DeviceBuffer send(total * 4, &in[rank]), recv(counts[rank] * 4);
    CHILD_CHECK(HcclReduceScatterV(send.ptr, counts.data(), displs.data(), recv.ptr, counts[rank], HCCL_DATA_TYPE_INT32,
                                   HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, blocks));
  }
  // AlltoAll: block j of rank i's buffer goes to block i of rank j.
  {
    const auto in = Inputs(52, n, HCCL_DATA_TYPE_INT8, count * n);
    Bytes expected;
    for (uint32_t i = 0; i < n; ++i) Append(&expected, Slice(in[i], rank * count, count, 1));
    DeviceBuffer send(in[rank].size(), &in[rank]), recv(count * n);
    CHILD_CHECK(HcclAlltoAll(send.ptr, count, HCCL_DATA_TYPE_INT8, recv.ptr, count, HCCL_DATA_TYPE_INT8, comm, stream) ==
                HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == expected);
  }
  // AlltoAllV and AlltoAllVC with matrix[i][j] = 3 + i + 2 j elements from i to j, blocks packed.
  {
    auto cell = [](uint32_t i, uint32_t j) -> uint64_t { return 3 + i + 2 * j; };
    std::vector<uint64_t> matrix(static_cast<size_t>(n) * n);
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t j = 0; j < n; ++j) matrix[static_cast<size_t>(i) * n + j] = cell(i, j);
    }
    std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
    uint64_t s_total = 0, r_total = 0;
    for (uint32_t j = 0; j < n; ++j) {
      sc[j] = cell(rank, j), sd[j] = s_total, s_total += sc[j];
      rc[j] = cell(j, rank), rd[j] = r_total, r_total += rc[j];
    }
    std::vector<Bytes> in;
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t total = 0;
      for (uint32_t j = 0; j < n; ++j) total += cell(i, j);
      in.push_back(Inputs(53, n, HCCL_DATA_TYPE_FP32, total)[i]);
    }
    Bytes expected;
    for (uint32_t i = 0; i < n; ++i) {
      uint64_t offset = 0;
      for (uint32_t j = 0; j < rank; ++j) offset += cell(i, j);
      Append(&expected, Slice(in[i], offset, cell(i, rank), 4));
    }
    DeviceBuffer send(s_total * 4, &in[rank]), recv_v(r_total * 4), recv_vc(r_total * 4);
    CHILD_CHECK(HcclAlltoAllV(send.ptr, sc.data(), sd.data(), HCCL_DATA_TYPE_FP32, recv_v.ptr, rc.data(), rd.data(),
                              HCCL_DATA_TYPE_FP32, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(HcclAlltoAllVC(send.ptr, matrix.data(), HCCL_DATA_TYPE_FP32, recv_vc.ptr, HCCL_DATA_TYPE_FP32, comm,
                               stream) == HCCL_SUCCESS);
    CHILD_CHECK(HcclBarrier(comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv_v.Read() == expected);
    CHILD_CHECK(recv_vc.Read() == expected);
  }
  return 0;
}

int PointToPoint(uint32_t rank, uint32_t n, HcclComm comm, aclrtStream stream) {
  const size_t count = 4099;
  const auto in = Inputs(60, n, HCCL_DATA_TYPE_FP16, count);
  // Ranks 0 and 1 exchange with HcclSend / HcclRecv (0 sends first, 1 receives first).
  if (n >= 2 && rank < 2) {
    const uint32_t other = 1 - rank;
    DeviceBuffer send(count * 2, &in[rank]), recv(count * 2);
    if (rank == 0) {
      CHILD_CHECK(HcclSend(send.ptr, count, HCCL_DATA_TYPE_FP16, other, comm, stream) == HCCL_SUCCESS);
      CHILD_CHECK(HcclRecv(recv.ptr, count, HCCL_DATA_TYPE_FP16, other, comm, stream) == HCCL_SUCCESS);
    } else {
      CHILD_CHECK(HcclRecv(recv.ptr, count, HCCL_DATA_TYPE_FP16, other, comm, stream) == HCCL_SUCCESS);
      CHILD_CHECK(HcclSend(send.ptr, count, HCCL_DATA_TYPE_FP16, other, comm, stream) == HCCL_SUCCESS);
    }
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == in[other]);
  }
  // Every rank sends to every rank (itself included) in one batch, receives from all in reverse order.
  std::vector<DeviceBuffer*> recvs;
  DeviceBuffer send(count * 2, &in[rank]);
  std::vector<HcclSendRecvItem> items;
  for (uint32_t j = 0; j < n; ++j) items.push_back({HCCL_SEND, send.ptr, count, HCCL_DATA_TYPE_FP16, j});
  for (uint32_t j = n; j-- > 0;) {
    recvs.push_back(new DeviceBuffer(count * 2));
    items.push_back({HCCL_RECV, recvs.back()->ptr, count, HCCL_DATA_TYPE_FP16, j});
  }
  CHILD_CHECK(HcclBatchSendRecv(items.data(), static_cast<uint32_t>(items.size()), comm, stream) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
  bool right = true;
  for (uint32_t k = 0; k < n; ++k) right = right && recvs[k]->Read() == in[n - 1 - k];
  for (DeviceBuffer* b : recvs) delete b;
  CHILD_CHECK(right);
  // A size mismatch fails both sides; the communicator still works after (on a fresh stream).
  if (n >= 2 && rank < 2) {
    DeviceBuffer buf(count * 2, &in[rank]);
    HcclSendRecvItem item = rank == 0 ? HcclSendRecvItem{HCCL_SEND, buf.ptr, count, HCCL_DATA_TYPE_FP16, 1}
                                      : HcclSendRecvItem{HCCL_RECV, buf.ptr, count - 1, HCCL_DATA_TYPE_FP16, 0};
    CHILD_CHECK(HcclBatchSendRecv(&item, 1, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) != ACL_SUCCESS);
    CHILD_CHECK(std::string(aclGetRecentErrMsg()).find("which receives") != std::string::npos);
  }
  return 0;
}

// Runs body(t) on `count` threads at once; the first non-zero result, else 0.
int OnThreads(uint32_t count, const std::function<int(uint32_t t)>& body) {
  std::vector<int> results(count, -1);
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < count; ++t) threads.emplace_back([&, t] { results[t] = body(t); });
  for (auto& th : threads) th.join();
  for (int rc : results) {
    if (rc != 0) return rc;
  }
  return 0;
}

}  // namespace

bool MapsSharedControlBlock() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("npurt-hccl") != std::string::npos) return true;
  }
  return false;
}

int EveryOperation(uint32_t rank, uint32_t n, const HcclRootInfo& root) {
  HcclComm comm = nullptr;
  CHILD_CHECK(HcclCommInitRootInfo(n, &root, rank, &comm) == HCCL_SUCCESS);
  aclrtStream stream = nullptr;
  CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
  if (int rc = AllReduces(rank, n, comm, stream); rc != 0) return rc;
  if (int rc = RootedAndGathers(rank, n, comm, stream); rc != 0) return rc;
  if (int rc = Scatters(rank, n, comm, stream); rc != 0) return rc;
  if (int rc = PointToPoint(rank, n, comm, stream); rc != 0) return rc;
  // A disagreement fails every rank with HCCL_E_PARA, naming the ranks; the communicator still works.
  aclrtStream fresh = nullptr;
  CHILD_CHECK(aclrtCreateStream(&fresh) == ACL_SUCCESS);
  const auto in = Inputs(70, n, HCCL_DATA_TYPE_INT32, 64);
  DeviceBuffer send(64 * 4, &in[rank]), recv(64 * 4);
  if (n >= 2) {
    const HcclDataType mine = rank == n - 1 ? HCCL_DATA_TYPE_UINT32 : HCCL_DATA_TYPE_INT32;
    CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, 64, mine, HCCL_REDUCE_MAX, comm, fresh) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(fresh) != ACL_SUCCESS);
    CHILD_CHECK(std::string(aclGetRecentErrMsg()).find("data type") != std::string::npos);
    CHILD_CHECK(aclrtDestroyStream(fresh) == ACL_SUCCESS);
    CHILD_CHECK(aclrtCreateStream(&fresh) == ACL_SUCCESS);
  }
  CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, 64, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, comm, fresh) == HCCL_SUCCESS);
  CHILD_CHECK(aclrtSynchronizeStream(fresh) == ACL_SUCCESS);
  CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, in));
  const char* transport = std::getenv("NPURT_HCCL_TRANSPORT");
  const bool gloo = transport != nullptr && std::string(transport) == "gloo";
  CHILD_CHECK(MapsSharedControlBlock() == (n > 1 && !gloo));
  CHILD_CHECK(aclrtDestroyStream(fresh) == ACL_SUCCESS);
  CHILD_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
  CHILD_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
  return 0;
}

int Stress(uint32_t rank, uint32_t n, const HcclRootInfo roots[2]) {
  // Two communicators over the same processes, each driven by its own thread and stream, with buffers of
  // sizes that change every round (the same on every rank: seeded by the round).
  return OnThreads(2, [&](uint32_t c) -> int {
    CHILD_CHECK(aclrtSetDevice(0) == ACL_SUCCESS);
    HcclComm comm = nullptr;
    CHILD_CHECK(HcclCommInitRootInfo(n, &roots[c], rank, &comm) == HCCL_SUCCESS);
    aclrtStream stream = nullptr;
    CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    for (uint32_t round = 0; round < 40; ++round) {
      std::mt19937 pick(1000 * c + round);
      const size_t count = 1 + pick() % (c == 0 ? 200000 : 3000);
      const auto in = Inputs(2000 + 100 * c + round, n, HCCL_DATA_TYPE_INT32, count);
      DeviceBuffer send(count * 4, &in[rank]), recv(count * 4), gathered(count * 4 * n), ring(count * 4);
      CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
      CHILD_CHECK(HcclAllGather(send.ptr, gathered.ptr, count, HCCL_DATA_TYPE_INT32, comm, stream) == HCCL_SUCCESS);
      HcclSendRecvItem items[2] = {{HCCL_SEND, send.ptr, count, HCCL_DATA_TYPE_INT32, (rank + 1) % n},
                                   {HCCL_RECV, ring.ptr, count, HCCL_DATA_TYPE_INT32, (rank + n - 1) % n}};
      CHILD_CHECK(HcclBatchSendRecv(items, 2, comm, stream) == HCCL_SUCCESS);
      CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
      CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, in));
      Bytes all;
      for (const Bytes& b : in) Append(&all, b);
      CHILD_CHECK(gathered.Read() == all);
      CHILD_CHECK(ring.Read() == in[(rank + n - 1) % n]);
    }
    CHILD_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
    return 0;
  });
}

int TwoByTwo(uint32_t process, uint32_t per_process, const char* table) {
  const uint32_t n = 4;
  return OnThreads(per_process, [&](uint32_t t) -> int {
    const uint32_t rank = process * per_process + t;
    CHILD_CHECK(aclrtSetDevice(static_cast<int32_t>(rank % 2)) == ACL_SUCCESS);
    HcclComm comm = nullptr;
    CHILD_CHECK(HcclCommInitClusterInfo(table, rank, &comm) == HCCL_SUCCESS);
    aclrtStream stream = nullptr;
    CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    uint32_t seed = 300;
    for (size_t count : {size_t{1}, size_t{3}, size_t{1001}, size_t{262147}}) {
      for (HcclDataType t : {HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_BFP16, HCCL_DATA_TYPE_INT8}) {
        const auto in = Inputs(seed++, n, t, count);
        const size_t bytes = count * TypeSize(t);
        DeviceBuffer send(bytes, &in[rank]), recv(bytes), in_place(bytes, &in[rank]);
        CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, t, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
        CHILD_CHECK(HcclAllReduce(in_place.ptr, in_place.ptr, count, t, HCCL_REDUCE_MAX, comm, stream) == HCCL_SUCCESS);
        CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHILD_CHECK(recv.Read() == ReferenceReduce(t, HCCL_REDUCE_SUM, in));
        CHILD_CHECK(in_place.Read() == ReferenceReduce(t, HCCL_REDUCE_MAX, in));
      }
    }
    // Broadcast in stages too, from a rank of either machine.
    for (uint32_t root : {1u, 2u}) {
      for (size_t count : {size_t{1}, size_t{5}, size_t{100003}}) {
        const auto in = Inputs(seed++, n, HCCL_DATA_TYPE_INT32, count);
        DeviceBuffer buf(count * 4, &in[rank]);
        CHILD_CHECK(HcclBroadcast(buf.ptr, count, HCCL_DATA_TYPE_INT32, root, comm, stream) == HCCL_SUCCESS);
        CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        CHILD_CHECK(buf.Read() == in[root]);
      }
    }
    // The other operations go over Gloo between all ranks.
    const auto in = Inputs(seed++, n, HCCL_DATA_TYPE_FP16, 999);
    DeviceBuffer send(999 * 2, &in[rank]), gathered(999 * 2 * n);
    CHILD_CHECK(HcclAllGather(send.ptr, gathered.ptr, 999, HCCL_DATA_TYPE_FP16, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    Bytes all;
    for (const Bytes& b : in) Append(&all, b);
    CHILD_CHECK(gathered.Read() == all);
    // Machines that disagree on the count (ranks 0-1 say 10, ranks 2-3 say 11): every rank fails, and
    // the communicator still works after.
    aclrtStream fresh = nullptr;
    CHILD_CHECK(aclrtCreateStream(&fresh) == ACL_SUCCESS);
    CHILD_CHECK(HcclAllReduce(send.ptr, gathered.ptr, rank < 2 ? 10 : 11, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm,
                              fresh) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(fresh) != ACL_SUCCESS);
    CHILD_CHECK(aclrtDestroyStream(fresh) == ACL_SUCCESS);
    CHILD_CHECK(aclrtCreateStream(&fresh) == ACL_SUCCESS);
    DeviceBuffer again(999 * 2, &in[rank]);
    CHILD_CHECK(HcclAllReduce(again.ptr, again.ptr, 999, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, comm, fresh) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(fresh) == ACL_SUCCESS);
    CHILD_CHECK(again.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, in));
    // The machine's ranks share memory when they are processes of their own; threads of one process
    // need no shared control block.
    CHILD_CHECK(MapsSharedControlBlock() == (per_process == 1));
    CHILD_CHECK(aclrtDestroyStream(fresh) == ACL_SUCCESS);
    CHILD_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
    return 0;
  });
}

int RanksSharingProcesses(uint32_t process, uint32_t processes, uint32_t per_process, const HcclRootInfo& root) {
  const uint32_t n = processes * per_process;
  return OnThreads(per_process, [&](uint32_t t) -> int {
    const uint32_t rank = process * per_process + t;
    CHILD_CHECK(aclrtSetDevice(static_cast<int32_t>(t)) == ACL_SUCCESS);
    HcclComm comm = nullptr;
    CHILD_CHECK(HcclCommInitRootInfo(n, &root, rank, &comm) == HCCL_SUCCESS);
    aclrtStream stream = nullptr;
    CHILD_CHECK(aclrtCreateStream(&stream) == ACL_SUCCESS);
    for (size_t count : {size_t{1000}, size_t{300000}}) {
      const auto in = Inputs(80 + static_cast<uint32_t>(count % 7), n, HCCL_DATA_TYPE_FP32, count);
      DeviceBuffer send(count * 4, &in[rank]), recv(count * 4), gathered(count * 4 * n);
      CHILD_CHECK(HcclAllReduce(send.ptr, recv.ptr, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream) == HCCL_SUCCESS);
      CHILD_CHECK(HcclAllGather(send.ptr, gathered.ptr, count, HCCL_DATA_TYPE_FP32, comm, stream) == HCCL_SUCCESS);
      CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
      CHILD_CHECK(recv.Read() == ReferenceReduce(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, in));
      Bytes all;
      for (const Bytes& b : in) Append(&all, b);
      CHILD_CHECK(gathered.Read() == all);
    }
    // A ring of sends and receives over every rank.
    const auto in = Inputs(90, n, HCCL_DATA_TYPE_INT32, 2048);
    DeviceBuffer send(2048 * 4, &in[rank]), recv(2048 * 4);
    HcclSendRecvItem items[2] = {{HCCL_SEND, send.ptr, 2048, HCCL_DATA_TYPE_INT32, (rank + 1) % n},
                                 {HCCL_RECV, recv.ptr, 2048, HCCL_DATA_TYPE_INT32, (rank + n - 1) % n}};
    CHILD_CHECK(HcclBatchSendRecv(items, 2, comm, stream) == HCCL_SUCCESS);
    CHILD_CHECK(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(recv.Read() == in[(rank + n - 1) % n]);
    CHILD_CHECK(MapsSharedControlBlock());
    CHILD_CHECK(aclrtDestroyStream(stream) == ACL_SUCCESS);
    CHILD_CHECK(HcclCommDestroy(comm) == HCCL_SUCCESS);
    return 0;
  });
}

}  // namespace npurt_hccl_test
