// DataCopyPad (GM->UB) padding: paddingValue (isPad), the SetPadValue value (!isPad), or the padding left
// as it was (!isPad with no SetPadValue), with left / right padding, several rows, a source gap and rows
// rounded up to 32 bytes, also through the older DataCopyParams / DataCopyPadParams forms; TPipe's event ids (AllocEventID / ReleaseEventID / FetchEventID); and
// ListTensorDesc / TensorDesc over a host-built list of tensors of different ranks.
#include "aclrtlaunch_vec_copy_pad.h"
#include "aclrtlaunch_vec_event_ids.h"
#include "aclrtlaunch_vec_list_tensor.h"
#include "aclrtlaunch_vec_slice_copy.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class CopyPadTest : public VecTest {};

TEST_F(CopyPadTest, PaddingValueSetPadValueOrUntouched) {
  std::mt19937_64 rng(71);
  struct Case {
    uint32_t rows, cols, gap_elems, left, right;
  };
  for (const Case& k : {Case{1, 20, 0, 0, 4}, Case{3, 13, 2, 2, 1}, Case{4, 8, 0, 0, 0}, Case{2, 5, 1, 3, 8}}) {
    for (uint32_t mode = 0; mode < 4; ++mode) {
      const uint32_t row_elems = (k.left + k.cols + k.right + 7) / 8 * 8;  // 32-byte rows in the UB
      const uint32_t n_dst = k.rows * row_elems + 8;
      const uint32_t n_src = k.rows * (k.cols + k.gap_elems);
      const std::vector<float> src = RandomValues<float>(n_src, rng, -5, 5);
      const std::vector<float> dst0 = RandomValues<float>(n_dst, rng, -5, 5);
      const float value = 7.25f;
      DevMem ds(n_src * 4), dd(n_dst * 4);
      CopyIn(ds, src.data(), n_src * 4);
      CopyIn(dd, dst0.data(), n_dst * 4);
      ASSERT_EQ(aclrtlaunch_vec_copy_pad(1, stream_, ds.get(), dd.get(), k.rows, k.cols, k.gap_elems * 4, k.left,
                                         k.right, n_dst, mode, value),
                ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
      std::vector<float> got(n_dst);
      CopyOut(got.data(), dd, n_dst * 4);
      std::vector<float> want = dst0;
      for (uint32_t r = 0; r < k.rows; ++r) {
        float* row = want.data() + r * row_elems;
        if (mode != 2) {
          for (uint32_t j = 0; j < k.left; ++j) row[j] = value;
          for (uint32_t j = 0; j < k.right; ++j) row[k.left + k.cols + j] = value;
        }
        for (uint32_t j = 0; j < k.cols; ++j) row[k.left + j] = src[r * (k.cols + k.gap_elems) + j];
      }
      EXPECT_EQ(Mismatches(got, want), "") << "rows " << k.rows << " cols " << k.cols << " left " << k.left
                                           << " right " << k.right << " mode " << mode;
    }
  }
}

TEST_F(CopyPadTest, EventIdsAreAllocatedPerHardEvent) {
  DevMem d(5 * 4);
  ASSERT_EQ(aclrtlaunch_vec_event_ids(1, stream_, d.get()), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  int32_t got[5] = {};
  CopyOut(got, d, sizeof got);
  EXPECT_EQ(got[0], 0);
  EXPECT_EQ(got[1], 1);
  EXPECT_EQ(got[2], 2);
  EXPECT_EQ(got[3], 0);
  EXPECT_EQ(got[4], 0);
}

TEST_F(CopyPadTest, ListTensorDescReadsTheHostLayout) {
  // Three tensors of ranks 2, 3 and 1: header, descriptors (dim | index << 32, shape...), pointers.
  const std::vector<std::vector<uint64_t>> shapes = {{8, 2048}, {2, 3, 4}, {5}};
  std::vector<DevMem*> data;
  std::vector<uint64_t> words = {0};
  for (size_t i = 0; i < shapes.size(); ++i) {
    words.push_back(shapes[i].size() | (uint64_t{10 + i} << 32));
    for (uint64_t v : shapes[i]) words.push_back(v);
  }
  words[0] = words.size() * 8;
  for (size_t i = 0; i < shapes.size(); ++i) {
    data.push_back(new DevMem(64));
    const int32_t vals[2] = {static_cast<int32_t>(100 + i), static_cast<int32_t>(200 + i)};
    CopyIn(*data.back(), vals, sizeof vals);
    words.push_back(reinterpret_cast<uint64_t>(data.back()->get()));
  }
  DevMem dl(words.size() * 8), dout((1 + 8 * shapes.size()) * 8);
  CopyIn(dl, words.data(), words.size() * 8);
  ASSERT_EQ(aclrtlaunch_vec_list_tensor(1, stream_, dl.get(), dout.get(), static_cast<uint32_t>(words.size() * 8)),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<int64_t> got(1 + 8 * shapes.size());
  CopyOut(got.data(), dout, got.size() * 8);
  EXPECT_EQ(got[0], 3);
  for (size_t i = 0; i < shapes.size(); ++i) {
    const int64_t* t = got.data() + 1 + 8 * i;
    EXPECT_EQ(t[0], static_cast<int64_t>(shapes[i].size()));
    EXPECT_EQ(t[1], static_cast<int64_t>(10 + i));
    for (size_t k = 0; k < 4; ++k) EXPECT_EQ(t[2 + k], k < shapes[i].size() ? static_cast<int64_t>(shapes[i][k]) : 0);
    EXPECT_EQ(t[6], static_cast<int64_t>(100 + i));
    EXPECT_EQ(t[7], static_cast<int64_t>(200 + i));
  }
  for (DevMem* d : data) delete d;
}

// Slice DataCopy (GM -> UB): the reference's example (rows 0 and 2 of a 3 x 87 float tensor, two
// 24-element segments of each from element 16 with 7 between, into two 48-element rows) and a 1-D case
// with a segment cut at endIndex; the UB elements no slice picks keep their contents.
TEST_F(CopyPadTest, SliceDataCopy) {
  std::mt19937_64 rng(72);
  struct Dim {
    uint32_t start, end, stride, burst, shape;
  };
  struct Case {
    std::vector<Dim> dst, src;
    uint32_t n_src, n_ub;
  };
  const std::vector<Case> cases = {
      {{{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}}, {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}}, 3 * 87, 96},
      {{{8, 25, 0, 1, 40}}, {{3, 30, 5, 1, 40}}, 40, 40},  // 18 elements: src [3,11) [16,24) [29,31), dst [8,26)
  };
  for (const Case& k : cases) {
    const std::vector<float> src = RandomValues<float>(k.n_src, rng, -5, 5);
    const std::vector<float> ub0 = RandomValues<float>(k.n_ub, rng, -5, 5);
    std::vector<uint32_t> infos;
    for (const auto* side : {&k.dst, &k.src}) {
      for (const Dim& d : *side) infos.insert(infos.end(), {d.start, d.end, d.stride, d.burst, d.shape});
    }
    const uint32_t dims = static_cast<uint32_t>(k.dst.size());
    DevMem ds(k.n_src * 4), di(k.n_ub * 4), dout(k.n_ub * 4), dinfo(infos.size() * 4);
    CopyIn(ds, src.data(), k.n_src * 4);
    CopyIn(di, ub0.data(), k.n_ub * 4);
    CopyIn(dinfo, infos.data(), infos.size() * 4);
    ASSERT_EQ(aclrtlaunch_vec_slice_copy(1, stream_, ds.get(), di.get(), dout.get(), dinfo.get(), dims, k.n_ub),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<float> got(k.n_ub);
    CopyOut(got.data(), dout, k.n_ub * 4);
    // The model: the offsets each side picks, in order.
    auto offsets = [](const std::vector<Dim>& dims_info) {
      std::vector<uint64_t> offs = {0};
      std::vector<uint64_t> pitch(dims_info.size(), 1);
      for (size_t d = 1; d < dims_info.size(); ++d) pitch[d] = pitch[d - 1] * dims_info[d - 1].shape;
      for (size_t dd = dims_info.size(); dd-- > 0;) {
        const Dim& s = dims_info[dd];
        std::vector<uint64_t> idx;
        if (dd == 0) {
          const uint64_t seg = uint64_t{s.burst} * 8;
          for (uint64_t st = s.start; st <= s.end; st += seg + s.stride) {
            for (uint64_t i = st; i < st + seg && i <= s.end; ++i) idx.push_back(i);
          }
        } else {
          for (uint64_t i = s.start; i <= s.end; i += s.stride + 1) idx.push_back(i);
        }
        std::vector<uint64_t> next;
        for (uint64_t o : offs) {
          for (uint64_t i : idx) next.push_back(o + i * pitch[dd]);
        }
        offs.swap(next);
      }
      return offs;
    };
    const std::vector<uint64_t> d = offsets(k.dst), s = offsets(k.src);
    ASSERT_EQ(d.size(), s.size());
    std::vector<float> want = ub0;
    for (size_t i = 0; i < d.size(); ++i) want[d[i]] = src[s[i]];
    EXPECT_EQ(Mismatches(got, want), "") << "dims " << dims;
  }
}

}  // namespace
}  // namespace vectest
