// The level-0 reductions (WholeReduce*, BlockReduce*, PairReduceSum, ReduceSum/Max/Min with mask and
// repeat) against a host model: random operands, every mask form, repeats > 1, source block and repeat
// strides, destination repeat strides, every ReduceOrder, half and float. The destination starts with
// random contents, so a result written where it should not be shows.
#include <cmath>

#include "aclrtlaunch_vec_reduce.h"
#include "aclrtlaunch_vec_reduce_sum_spr.h"
#include "vec_case.h"
#include "vec_model.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

// a + b rounded to T; half saturates at +-65504 (the model of the vector unit's pairwise adds).
template <typename T>
T RedAdd(T a, T b) {
  const double s = static_cast<double>(a) + static_cast<double>(b);
  if (std::is_same<T, half>::value && std::fabs(s) > 65504.0) return static_cast<T>(s > 0 ? 65504.0 : -65504.0);
  return static_cast<T>(s);
}

// Adjacent pairs, then pairs of those, ... (v.size() a power of two).
template <typename T>
T RedTree(std::vector<T> v) {
  while (v.size() > 1) {
    std::vector<T> next(v.size() / 2);
    for (size_t j = 0; j < next.size(); ++j) next[j] = RedAdd(v[2 * j], v[2 * j + 1]);
    v.swap(next);
  }
  return v[0];
}

// The result slots of one case, as bytes of the destination.
class RedDst {
 public:
  explicit RedDst(std::vector<uint8_t> bytes) : b_(std::move(bytes)) {}
  template <typename V>
  void Put(size_t byte_off, V v) {
    if (byte_off + sizeof(V) > b_.size()) {
      ADD_FAILURE() << "model writes past the destination (" << byte_off << ")";
      return;
    }
    std::memcpy(b_.data() + byte_off, &v, sizeof(V));
  }
  const std::vector<uint8_t>& bytes() const { return b_; }

 private:
  std::vector<uint8_t> b_;
};

template <typename T>
std::vector<uint8_t> RedModel(const VecCase& c, const std::vector<T>& src, std::vector<uint8_t> dst0) {
  const L0Plan p = PlanOf<T>(c);
  RedDst d(std::move(dst0));
  const bool is_max = c.op == kRedWholeMax || c.op == kRedBlockMax || c.op == kRedMax;
  const uint32_t blk = (c.op >= kRedSum && c.op <= kRedMin) ? 1 : c.src0_blk;
  auto lanes = [&](uint32_t r, std::vector<T>& v, std::vector<bool>& a) {
    v.assign(p.per, T(0));
    a.assign(p.per, false);
    for (uint32_t k = 0; k < p.per; ++k) {
      if (!p.Active(r, k)) continue;
      a[k] = true;
      v[k] = src[L0Offset<T>(blk, c.src0_rep, r, k)];
    }
  };
  // First extreme active lane of [lo, hi); -1 if none.
  auto extreme = [&](const std::vector<T>& v, const std::vector<bool>& a, uint32_t lo, uint32_t hi) {
    int best = -1;
    for (uint32_t k = lo; k < hi; ++k) {
      if (!a[k]) continue;
      if (best < 0 || (is_max ? v[k] > v[best] : v[k] < v[best])) best = static_cast<int>(k);
    }
    return best;
  };
  std::vector<T> v;
  std::vector<bool> a;
  if (c.op >= kRedSum && c.op <= kRedMin) {
    std::vector<T> sums;
    int best = -1;
    T best_v{};
    for (uint32_t r = 0; r < p.repeats; ++r) {
      lanes(r, v, a);
      sums.push_back(RedTree(v));
      const int k = extreme(v, a, 0, p.per);
      if (k >= 0 && (best < 0 || (is_max ? v[k] > best_v : v[k] < best_v))) {
        best = static_cast<int>(r * p.per) + k;
        best_v = v[k];
      }
    }
    if (c.op == kRedSum) {
      while (sums.size() > 1) {
        std::vector<T> next;
        for (size_t i = 0; i < sums.size(); i += p.per) {
          std::vector<T> chunk(p.per, T(0));
          for (size_t k = 0; k < p.per && i + k < sums.size(); ++k) chunk[k] = sums[i + k];
          next.push_back(RedTree(chunk));
        }
        sums.swap(next);
      }
      d.Put(0, sums[0]);
    } else {
      d.Put(0, best_v);
      if (c.order != 0) {
        if (sizeof(T) == 2) d.Put(2, static_cast<uint16_t>(best));
        else d.Put(4, static_cast<uint32_t>(best));
      }
    }
    return d.bytes();
  }
  for (uint32_t r = 0; r < p.repeats; ++r) {
    lanes(r, v, a);
    switch (c.op) {
      case kRedWholeSum:
      case kRedRepeatSum: d.Put(size_t{r} * c.dst_rep * sizeof(T), RedTree(v)); break;
      case kRedWholeMax:
      case kRedWholeMin: {
        const int k = extreme(v, a, 0, p.per);
        const auto index = static_cast<uint32_t>(k);
        const size_t unit = c.order == 2 ? sizeof(T) : c.order == 3 ? 4 : 2 * sizeof(T);
        const size_t off = size_t{r} * c.dst_rep * unit;
        auto put_index = [&](size_t at) {
          if (sizeof(T) == 2) d.Put(at, static_cast<uint16_t>(index));
          else d.Put(at, index);
        };
        if (c.order == 0) { d.Put(off, v[k]); put_index(off + sizeof(T)); }
        if (c.order == 1) { put_index(off); d.Put(off + sizeof(T), v[k]); }
        if (c.order == 2) d.Put(off, v[k]);
        if (c.order == 3) d.Put(off, index);
        break;
      }
      default: {  // block / pair groups
        const bool pair = c.op == kRedPairSum;
        const uint32_t group = pair ? 2 : 32 / sizeof(T);
        const size_t rep_elems = pair ? 128 / sizeof(T) : 8;
        for (uint32_t g = 0; g < p.per / group; ++g) {
          bool any = false;
          for (uint32_t j = 0; j < group; ++j) any = any || a[g * group + j];
          if (!any) continue;  // left as it was
          T out;
          if (c.op == kRedBlockSum || pair) {
            out = RedTree(std::vector<T>(v.begin() + g * group, v.begin() + (g + 1) * group));
          } else {
            out = v[extreme(v, a, g * group, (g + 1) * group)];
          }
          d.Put((size_t{r} * c.dst_rep * rep_elems + g) * sizeof(T), out);
        }
      }
    }
  }
  return d.bytes();
}

// Bytes of the destination the case may write: its last repeat's results, plus a block.
template <typename T>
size_t RedDstBytes(const VecCase& c, const L0Plan& p) {
  size_t per_repeat = 0, unit = 0;
  switch (c.op) {
    case kRedWholeSum:
    case kRedRepeatSum: unit = sizeof(T); per_repeat = sizeof(T); break;
    case kRedWholeMax:
    case kRedWholeMin:
      unit = c.order == 2 ? sizeof(T) : c.order == 3 ? 4 : 2 * sizeof(T);
      per_repeat = unit;
      break;
    case kRedPairSum: unit = 128; per_repeat = 128; break;
    case kRedSum: case kRedMax: case kRedMin: return 64;
    default: unit = 8 * sizeof(T); per_repeat = 8 * sizeof(T);
  }
  const size_t end = (p.repeats == 0 ? 0 : (p.repeats - 1) * c.dst_rep * unit) + per_repeat;
  return (end + 31) / 32 * 32 + 32;
}

class ReduceTest : public VecTest {
 protected:
  template <typename T>
  void RunAndCheck(VecCase c, std::mt19937_64& rng, std::vector<T> src = {}) {
    c.dtype = DtypeOf<T>();
    const L0Plan p = PlanOf<T>(c);
    const uint32_t blk = (c.op >= kRedSum && c.op <= kRedMin) ? 1 : c.src0_blk;
    c.n_src0 = L0Extent<T>(p, blk, c.src0_rep);
    const size_t dst_bytes = RedDstBytes<T>(c, p);
    c.n_dst = static_cast<uint32_t>(dst_bytes / sizeof(T));
    if (src.empty()) src = RandomValues<T>(c.n_src0, rng, -4, 4);
    src.resize(c.n_src0, T(1));
    std::vector<uint8_t> dst0(dst_bytes);
    for (auto& b : dst0) b = static_cast<uint8_t>(rng() % 255 + 1);
    DevMem ds(src.size() * sizeof(T)), dd(dst_bytes), dc(sizeof(VecCase));
    CopyIn(ds, src.data(), src.size() * sizeof(T));
    CopyIn(dd, dst0.data(), dst_bytes);
    CopyIn(dc, &c, sizeof c);
    ASSERT_EQ(aclrtlaunch_vec_reduce(1, stream_, ds.get(), dd.get(), dc.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<uint8_t> got(dst_bytes);
    CopyOut(got.data(), dd, dst_bytes);
    const std::vector<uint8_t> want = RedModel<T>(c, src, dst0);
    EXPECT_NE(want, dst0) << "the case writes nothing";
    EXPECT_EQ(got, want) << "op " << c.op << " dtype " << c.dtype << " form " << c.mask_form << " repeat " << c.repeat
                         << " mask " << std::hex << c.mask[1] << ":" << c.mask[0] << std::dec << " count " << c.count
                         << " src " << c.src0_blk << "/" << c.src0_rep << " dst_rep " << c.dst_rep << " order "
                         << c.order;
  }

  template <typename T>
  void RunAllForms(uint32_t op, uint64_t seed, bool by_type = false) {
    std::mt19937_64 rng(seed);
    const bool whole_repeat_api = op >= kRedSum && op <= kRedMin;  // ReduceSum/Max/Min: no isSetMask, block stride 1
    for (uint32_t form = kMaskBits; form <= kMaskCounterArg; ++form) {
      if (whole_repeat_api && (form == kMaskRegister || form == kMaskCounterRegister)) continue;
      if (op == kRedRepeatSum && form == kMaskBits) continue;  // a continuous mask only
      for (int trial = 0; trial < 4; ++trial) {
        VecCase c = RandomCase<T>(op, form, rng, 1, true);
        if (trial == 3) c.mask[0] = 0x00ff00000000ff01ull;  // whole blocks / pairs left out
        if (trial == 0) {  // the default strides
          c.src0_blk = 1;
          c.src0_rep = 8;
        }
        c.dst_rep = 1 + static_cast<uint32_t>(rng() % 3);
        c.order = (op == kRedWholeMax || op == kRedWholeMin) ? trial % 4 : trial % 2;
        c.by_type = by_type ? 1 : 0;
        RunAndCheck<T>(c, rng);
      }
    }
  }

  template <typename T>
  void RunOps(uint64_t seed) {
    for (uint32_t op = 0; op < kRedOpCount; ++op) RunAllForms<T>(op, seed + op);
  }
};

TEST_F(ReduceTest, Half) { RunOps<half>(10); }
TEST_F(ReduceTest, Float) { RunOps<float>(20); }

// ReduceRepeat / ReduceDataBlock / ReducePairElem<ReduceType>: the same instructions as WholeReduce*,
// BlockReduce* and PairReduceSum under CANN 9's names (mask before repeatTime), checked against the
// same model.
TEST_F(ReduceTest, ReduceTypeNames) {
  for (uint32_t op = kRedWholeSum; op <= kRedPairSum; ++op) {
    RunAllForms<half>(op, 40 + op, true);
    RunAllForms<float>(op, 60 + op, true);
  }
}

// Half pairwise sums saturate at 65504 instead of overflowing: 60000 + 60000 -> 65504, then
// 65504 + (-30000 + 96) = 35600, rounded to half (35584).
TEST_F(ReduceTest, HalfBlockSumSaturates) {
  std::mt19937_64 rng(1);
  VecCase c{};
  c.op = kRedBlockSum;
  c.mask_form = kMaskContinuous;
  c.count = 16;
  c.repeat = 1;
  c.src0_blk = 1;
  c.src0_rep = 8;
  c.dst_rep = 1;
  std::vector<half> src(128, half(0));
  src[0] = half(60000);
  src[1] = half(60000);
  src[2] = half(-30000);
  src[3] = half(96);
  RunAndCheck<half>(c, rng, src);
  EXPECT_EQ(static_cast<float>(RedTree(std::vector<half>(src.begin(), src.begin() + 16))), 35584.0f);
}

// The count-form ReduceSum leaves its result in the register GetReduceRepeatSumSpr reads.
TEST_F(ReduceTest, ReduceSumLeavesItsResultForGetReduceRepeatSumSpr) {
  std::mt19937_64 rng(5);
  const uint32_t n = 300;
  const std::vector<float> src = RandomValues<float>(n, rng, -4, 4);
  DevMem ds(n * 4), dd(8 * 4);
  CopyIn(ds, src.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_vec_reduce_sum_spr(1, stream_, ds.get(), dd.get(), n), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  float got[8] = {};
  CopyOut(got, dd, sizeof got);
  double sum = 0;
  for (float v : src) sum += v;
  EXPECT_NEAR(got[0], sum, 1e-3);
  EXPECT_EQ(Bits(got[1]), Bits(got[0]));
}

}  // namespace
}  // namespace vectest
