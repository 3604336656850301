// Every collective, data type and reduce op on ranks that are simulated devices of this process
// (HcclCommInitAll), checked against a host reference on random data, for 1, 2, 3, 4 and 8 ranks.
#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

#include "hccl_test_util.h"

using namespace npurt_hccl_test;

namespace {

const HcclDataType kAllTypes[] = {HCCL_DATA_TYPE_INT8,   HCCL_DATA_TYPE_INT16,  HCCL_DATA_TYPE_INT32,
                                  HCCL_DATA_TYPE_FP16,   HCCL_DATA_TYPE_FP32,   HCCL_DATA_TYPE_INT64,
                                  HCCL_DATA_TYPE_UINT64, HCCL_DATA_TYPE_UINT8,  HCCL_DATA_TYPE_UINT16,
                                  HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_FP64,   HCCL_DATA_TYPE_BFP16};
const HcclReduceOp kOps[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
const uint32_t kRankCounts[] = {1, 2, 3, 4, 8};

bool ProdRefused(HcclDataType t) { return t == HCCL_DATA_TYPE_INT16 || t == HCCL_DATA_TYPE_BFP16; }

// Per-rank random inputs of `count` elements.
std::vector<std::vector<uint8_t>> Inputs(uint32_t n, HcclDataType t, size_t count, uint32_t seed, bool product = false) {
  std::mt19937 rng(seed);
  std::vector<std::vector<uint8_t>> in;
  for (uint32_t r = 0; r < n; ++r) in.push_back(RandomElements(t, count, rng, product));
  return in;
}

std::vector<uint8_t> Slice(const std::vector<uint8_t>& v, size_t from, size_t bytes) {
  return std::vector<uint8_t>(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(from + bytes));
}

}  // namespace

TEST(HcclCollectives, AllReduceEveryTypeOpAndRankCount) {
  for (uint32_t n : kRankCounts) {
    for (HcclDataType t : kAllTypes) {
      for (HcclReduceOp op : kOps) {
        if (op == HCCL_REDUCE_PROD && ProdRefused(t)) continue;
        if (op == HCCL_REDUCE_PROD && n > 4) continue;  // products of 8 ranks overflow int8
        const size_t count = 37 + n;  // not a multiple of the rank count: uneven chunks
        auto in = Inputs(n, t, count, 1000 * n + 10 * static_cast<uint32_t>(t) + static_cast<uint32_t>(op), op == HCCL_REDUCE_PROD);
        const auto expected = ReferenceReduce(t, op, in);
        const bool in_place = (static_cast<int>(t) + static_cast<int>(op)) % 2 == 0;
        RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
          DeviceBuffer send(in[r].size(), &in[r]);
          DeviceBuffer recv(in[r].size());
          void* out = in_place ? send.ptr : recv.ptr;
          ASSERT_EQ(HcclAllReduce(send.ptr, out, count, t, op, comm, stream), HCCL_SUCCESS) << aclGetRecentErrMsg();
          ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
          EXPECT_EQ((in_place ? send : recv).Read(), expected) << "ranks " << n << " type " << t << " op " << op << " rank " << r;
        });
      }
    }
  }
}

TEST(HcclCollectives, BroadcastReduceScatterGather) {
  for (uint32_t n : kRankCounts) {
    const HcclDataType t = n % 2 ? HCCL_DATA_TYPE_FP32 : HCCL_DATA_TYPE_FP16;
    const size_t es = TypeSize(t), count = 29;
    auto in = Inputs(n, t, count * n, 77 + n);
    const uint32_t root = n - 1;
    RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
      // Broadcast from the last rank.
      DeviceBuffer b(count * es, &in[r]);
      ASSERT_EQ(HcclBroadcast(b.ptr, count, t, root, comm, stream), HCCL_SUCCESS) << aclGetRecentErrMsg();
      // Reduce (max) to the root.
      DeviceBuffer rs(count * es, &in[r]), rr(count * es);
      ASSERT_EQ(HcclReduce(rs.ptr, rr.ptr, count, t, HCCL_REDUCE_MAX, root, comm, stream), HCCL_SUCCESS);
      // AllGather of each rank's first `count` elements.
      DeviceBuffer gs(count * es, &in[r]), gr(count * es * n);
      ASSERT_EQ(HcclAllGather(gs.ptr, gr.ptr, count, t, comm, stream), HCCL_SUCCESS);
      // ReduceScatter (sum) of count*n elements.
      DeviceBuffer ss(count * es * n, &in[r]), sr(count * es);
      ASSERT_EQ(HcclReduceScatter(ss.ptr, sr.ptr, count, t, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
      // Scatter from rank 0.
      DeviceBuffer cs(count * es * n, &in[r]), cr(count * es);
      ASSERT_EQ(HcclScatter(cs.ptr, cr.ptr, count, t, 0, comm, stream), HCCL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();

      EXPECT_EQ(b.Read(), Slice(in[root], 0, count * es)) << "broadcast, rank " << r;
      if (r == root) {
        std::vector<std::vector<uint8_t>> heads;
        for (auto& v : in) heads.push_back(Slice(v, 0, count * es));
        EXPECT_EQ(rr.Read(), ReferenceReduce(t, HCCL_REDUCE_MAX, heads)) << "reduce";
      }
      std::vector<uint8_t> gathered;
      for (uint32_t j = 0; j < n; ++j) {
        auto head = Slice(in[j], 0, count * es);
        gathered.insert(gathered.end(), head.begin(), head.end());
      }
      EXPECT_EQ(gr.Read(), gathered) << "allgather, rank " << r;
      std::vector<std::vector<uint8_t>> blocks;
      for (auto& v : in) blocks.push_back(Slice(v, r * count * es, count * es));
      EXPECT_EQ(sr.Read(), ReferenceReduce(t, HCCL_REDUCE_SUM, blocks)) << "reducescatter, rank " << r;
      EXPECT_EQ(cr.Read(), Slice(in[0], r * count * es, count * es)) << "scatter, rank " << r;
    });
  }
}

TEST(HcclCollectives, InPlaceAllGatherAndReduceScatter) {
  const uint32_t n = 4;
  const HcclDataType t = HCCL_DATA_TYPE_INT32;
  const size_t count = 16, es = 4;
  auto in = Inputs(n, t, count * n, 5);
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    DeviceBuffer g(count * es * n, &in[r]);  // this rank's block is already in place
    char* base = static_cast<char*>(g.ptr);
    ASSERT_EQ(HcclAllGather(base + r * count * es, g.ptr, count, t, comm, stream), HCCL_SUCCESS);
    DeviceBuffer s(count * es * n, &in[r]);
    char* sb = static_cast<char*>(s.ptr);
    ASSERT_EQ(HcclReduceScatter(s.ptr, sb + r * count * es, count, t, HCCL_REDUCE_SUM, comm, stream), HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    std::vector<uint8_t> gathered;
    for (uint32_t j = 0; j < n; ++j) {
      auto b = Slice(in[j], j * count * es, count * es);
      gathered.insert(gathered.end(), b.begin(), b.end());
    }
    EXPECT_EQ(g.Read(), gathered);
    std::vector<std::vector<uint8_t>> blocks;
    for (auto& v : in) blocks.push_back(Slice(v, r * count * es, count * es));
    EXPECT_EQ(Slice(s.Read(), r * count * es, count * es), ReferenceReduce(t, HCCL_REDUCE_SUM, blocks));
  });
}

TEST(HcclCollectives, VariableSizedAndAllToAll) {
  for (uint32_t n : {2u, 3u, 4u}) {
    const HcclDataType t = HCCL_DATA_TYPE_FP32;
    const size_t es = 4;
    // Rank j's block for rank i has (i + 2 * j + 1) elements.
    auto block = [](uint32_t from, uint32_t to) { return static_cast<uint64_t>(to + 2 * from + 1); };
    std::mt19937 rng(n);
    std::vector<std::vector<uint8_t>> data;
    for (uint32_t r = 0; r < n; ++r) data.push_back(RandomElements(t, 64, rng));
    RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
      // AllGatherV: rank j contributes block(j, 0) elements at displacement 3 * j * j.
      std::vector<uint64_t> counts(n), displs(n);
      uint64_t total = 0;
      for (uint32_t j = 0; j < n; ++j) {
        counts[j] = block(j, 0);
        displs[j] = 3ull * j * j;
        total = std::max(total, displs[j] + counts[j]);
      }
      DeviceBuffer gs(counts[r] * es, &data[r]), gr(total * es);
      ASSERT_EQ(HcclAllGatherV(gs.ptr, counts[r], gr.ptr, counts.data(), displs.data(), t, comm, stream), HCCL_SUCCESS)
          << aclGetRecentErrMsg();
      // AlltoAllV: rank r sends block(r, j) elements to rank j, packed; receives block(j, r) from rank j, packed.
      std::vector<uint64_t> sc(n), sd(n), rc(n), rd(n);
      uint64_t so = 0, ro = 0;
      for (uint32_t j = 0; j < n; ++j) {
        sc[j] = block(r, j), sd[j] = so, so += sc[j];
        rc[j] = block(j, r), rd[j] = ro, ro += rc[j];
      }
      DeviceBuffer as(so * es, &data[r]), ar(ro * es);
      ASSERT_EQ(HcclAlltoAllV(as.ptr, sc.data(), sd.data(), t, ar.ptr, rc.data(), rd.data(), t, comm, stream), HCCL_SUCCESS)
          << aclGetRecentErrMsg();
      // AlltoAllVC with the same sizes as a matrix.
      std::vector<uint64_t> matrix(n * n);
      for (uint32_t i = 0; i < n; ++i) for (uint32_t j = 0; j < n; ++j) matrix[i * n + j] = block(i, j);
      DeviceBuffer cr(ro * es);
      ASSERT_EQ(HcclAlltoAllVC(as.ptr, matrix.data(), t, cr.ptr, t, comm, stream), HCCL_SUCCESS) << aclGetRecentErrMsg();
      // AlltoAll: 5 elements to each peer.
      DeviceBuffer ts(5 * n * es, &data[r]), tr(5 * n * es);
      ASSERT_EQ(HcclAlltoAll(ts.ptr, 5, t, tr.ptr, 5, t, comm, stream), HCCL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();

      auto g = gr.Read();
      for (uint32_t j = 0; j < n; ++j) {
        EXPECT_EQ(Slice(g, displs[j] * es, counts[j] * es), Slice(data[j], 0, counts[j] * es)) << "allgatherv " << j;
      }
      std::vector<uint8_t> expected;
      for (uint32_t j = 0; j < n; ++j) {
        uint64_t off = 0;
        for (uint32_t k = 0; k < r; ++k) off += block(j, k);
        auto b = Slice(data[j], off * es, block(j, r) * es);
        expected.insert(expected.end(), b.begin(), b.end());
      }
      EXPECT_EQ(ar.Read(), expected) << "alltoallv, rank " << r;
      EXPECT_EQ(cr.Read(), expected) << "alltoallvc, rank " << r;
      std::vector<uint8_t> a2a;
      for (uint32_t j = 0; j < n; ++j) {
        auto b = Slice(data[j], r * 5 * es, 5 * es);
        a2a.insert(a2a.end(), b.begin(), b.end());
      }
      EXPECT_EQ(tr.Read(), a2a) << "alltoall, rank " << r;
    });
  }
}

TEST(HcclCollectives, ReduceScatterV) {
  const uint32_t n = 3;
  const HcclDataType t = HCCL_DATA_TYPE_INT64;
  const size_t es = 8;
  std::vector<uint64_t> counts = {4, 0, 7}, displs = {0, 4, 5};
  auto in = Inputs(n, t, 12, 9);
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    DeviceBuffer s(12 * es, &in[r]), out(std::max<uint64_t>(counts[r], 1) * es);
    ASSERT_EQ(HcclReduceScatterV(s.ptr, counts.data(), displs.data(), out.ptr, counts[r], t, HCCL_REDUCE_MIN, comm, stream),
              HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    if (counts[r] == 0) return;
    std::vector<std::vector<uint8_t>> blocks;
    for (auto& v : in) blocks.push_back(Slice(v, displs[r] * es, counts[r] * es));
    EXPECT_EQ(out.Read(counts[r] * es), ReferenceReduce(t, HCCL_REDUCE_MIN, blocks));
  });
}

TEST(HcclPointToPoint, SendRecvPairsBatchRingAndGroupRing) {
  const uint32_t n = 4;
  const HcclDataType t = HCCL_DATA_TYPE_FP32;
  const size_t count = 100, es = 4;
  auto in = Inputs(n, t, count, 11);
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    // Pairs: even ranks send to the next odd rank.
    DeviceBuffer pair(count * es, &in[r]);
    if (r % 2 == 0) {
      ASSERT_EQ(HcclSend(pair.ptr, count, t, r + 1, comm, stream), HCCL_SUCCESS);
    } else {
      ASSERT_EQ(HcclRecv(pair.ptr, count, t, r - 1, comm, stream), HCCL_SUCCESS);
    }
    // A ring with HcclBatchSendRecv: send to the next rank, receive from the previous one.
    DeviceBuffer send(count * es, &in[r]), recv(count * es);
    HcclSendRecvItem items[2] = {{HCCL_SEND, send.ptr, count, t, (r + 1) % n}, {HCCL_RECV, recv.ptr, count, t, (r + n - 1) % n}};
    ASSERT_EQ(HcclBatchSendRecv(items, 2, comm, stream), HCCL_SUCCESS) << aclGetRecentErrMsg();
    // The same ring the other way round with grouped HcclSend/HcclRecv (each rank sends first).
    DeviceBuffer recv2(count * es);
    ASSERT_EQ(HcclGroupStart(), HCCL_SUCCESS);
    ASSERT_EQ(HcclSend(send.ptr, count, t, (r + n - 1) % n, comm, stream), HCCL_SUCCESS);
    ASSERT_EQ(HcclRecv(recv2.ptr, count, t, (r + 1) % n, comm, stream), HCCL_SUCCESS);
    ASSERT_EQ(HcclGroupEnd(), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(pair.Read(), in[r % 2 == 0 ? r : r - 1]);
    EXPECT_EQ(recv.Read(), in[(r + n - 1) % n]);
    EXPECT_EQ(recv2.Read(), in[(r + 1) % n]);
  });
}

TEST(HcclCollectives, BackToBackOperationsPipelineWithoutHostSyncs) {
  const uint32_t n = 4;
  const HcclDataType t = HCCL_DATA_TYPE_INT32;
  const size_t count = 1000, es = 4;
  RunRanks(n, [&](uint32_t r, HcclComm comm, aclrtStream stream) {
    std::vector<uint8_t> ones(count * es);
    for (size_t i = 0; i < count; ++i) reinterpret_cast<int32_t*>(ones.data())[i] = static_cast<int32_t>(r + 1);
    DeviceBuffer buf(count * es, &ones);
    // 20 in-place maxima queued back to back: each reads the result of the one before it.
    for (int i = 0; i < 20; ++i) ASSERT_EQ(HcclAllReduce(buf.ptr, buf.ptr, count, t, HCCL_REDUCE_MAX, comm, stream), HCCL_SUCCESS);
    ASSERT_EQ(HcclBarrier(comm, stream), HCCL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    auto out = buf.Read();
    for (size_t i = 0; i < count; ++i) ASSERT_EQ(reinterpret_cast<int32_t*>(out.data())[i], static_cast<int32_t>(n));
  });
}
