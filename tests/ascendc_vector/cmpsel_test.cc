// Compare / CompareScalar / Compares and Select against a host model: random operands drawn from a few
// values (so that EQ and NE both happen), every CMPMODE, count forms and every level-0 mask form, repeats,
// strides; Select in its tensor, scalar and VSEL_CMPMASK_SPR modes, and through the CmpMask register.
// Destinations (bits or elements) start random, so a bit or element written outside the mask shows.
#include "aclrtlaunch_vec_cmpsel.h"
#include "vec_case.h"
#include "vec_model.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

template <typename T>
bool CsCompare(T a, T b, uint32_t mode) {
  const double x = static_cast<double>(a), y = static_cast<double>(b);
  switch (mode) {
    case 0: return x < y;
    case 1: return x > y;
    case 2: return x == y;
    case 3: return x <= y;
    case 4: return x >= y;
    default: return x != y;
  }
}

bool CsBit(const std::vector<uint8_t>& b, uint64_t i) { return (b[i / 8] >> (i % 8)) & 1; }
void CsSetBit(std::vector<uint8_t>& b, uint64_t i, bool v) {
  if (v) b[i / 8] |= static_cast<uint8_t>(1u << (i % 8));
  else b[i / 8] &= static_cast<uint8_t>(~(1u << (i % 8)));
}

// The case's plan; the count form is a counter-mode plan.
template <typename T>
L0Plan CsPlan(const VecCase& c) {
  return PlanOf<T>(c);
}

bool CsIsSelect(uint32_t op) { return op >= kCsSelectTensor; }

struct CsBuffers {
  std::vector<uint8_t> dst;  // bits (Compare) or elements (Select)
  std::vector<uint8_t> sel;
};

template <typename T>
CsBuffers CsModel(const VecCase& c, const std::vector<T>& a, const std::vector<T>& b, CsBuffers buf) {
  const L0Plan p = CsPlan<T>(c);
  const bool count_form = c.mask_form == kMaskCountForm;
  const uint32_t d_blk = count_form ? 1 : c.dst_blk, d_rep = count_form ? 8 : c.dst_rep;
  const uint32_t a_blk = count_form ? 1 : c.src0_blk, a_rep = count_form ? 8 : c.src0_rep;
  const uint32_t b_blk = count_form ? 1 : c.src1_blk, b_rep = count_form ? 8 : c.src1_rep;
  const T s = static_cast<T>(c.scalar);
  std::vector<uint8_t> reg;  // the CmpMask register after the register Compare
  if (c.op == kCsRegisterSelect) {
    reg.assign(16, 0);
    for (uint32_t k = 0; k < p.per; ++k) {
      CsSetBit(reg, k, CsCompare(a[L0Offset<T>(c.src0_blk, c.src0_rep, 0, k)], b[L0Offset<T>(c.src1_blk, c.src1_rep, 0, k)], c.order));
    }
    std::copy(reg.begin(), reg.end(), buf.sel.begin());  // GetCmpMask: all 16 bytes
  }
  for (uint32_t r = 0; r < p.repeats; ++r) {
    for (uint32_t k = 0; k < p.per; ++k) {
      if (!p.Active(r, k)) continue;
      const uint64_t i = uint64_t{r} * p.per + k;
      const T x = a[L0Offset<T>(a_blk, a_rep, r, k)];
      if (!CsIsSelect(c.op)) {
        CsSetBit(buf.dst, i, CsCompare(x, c.op == kCsCompare ? b[L0Offset<T>(b_blk, b_rep, r, k)] : s, c.order));
        continue;
      }
      bool pick;
      if (c.op == kCsRegisterSelect) pick = CsBit(reg, k);
      else pick = CsBit(buf.sel, c.op == kCsSelectSpr ? k : i);
      const T y = c.op == kCsSelectScalar ? s : b[L0Offset<T>(b_blk, b_rep, r, k)];
      const T v = pick ? x : y;
      std::memcpy(buf.dst.data() + L0Offset<T>(d_blk, d_rep, r, k) * sizeof(T), &v, sizeof(T));
    }
  }
  return buf;
}

class CmpSelTest : public VecTest {
 protected:
  template <typename T>
  void RunAndCheck(VecCase c, std::mt19937_64& rng) {
    c.dtype = DtypeOf<T>();
    const L0Plan p = CsPlan<T>(c);
    const bool count_form = c.mask_form == kMaskCountForm;
    c.n_src0 = L0Extent<T>(p, count_form ? 1 : c.src0_blk, count_form ? 8 : c.src0_rep);
    c.n_src1 = L0Extent<T>(p, count_form ? 1 : c.src1_blk, count_form ? 8 : c.src1_rep);
    if (c.op == kCsRegisterSelect) {  // the register Compare reads every element of the first repeat
      L0Plan first;
      first.per = p.per;
      first.repeats = 1;
      first.bits[0] = first.bits[1] = ~0ull;
      c.n_src0 = std::max(c.n_src0, L0Extent<T>(first, c.src0_blk, c.src0_rep));
      c.n_src1 = std::max(c.n_src1, L0Extent<T>(first, c.src1_blk, c.src1_rep));
    }
    if (CsIsSelect(c.op)) {
      c.n_dst = L0Extent<T>(p, count_form ? 1 : c.dst_blk, count_form ? 8 : c.dst_rep) * sizeof(T);
    } else {
      c.n_dst = static_cast<uint32_t>((uint64_t{p.repeats} * p.per / 8 + 31) / 32 * 32 + 32);
    }
    std::vector<T> a = RandomValues<T>(c.n_src0, rng, -3, 4), b = RandomValues<T>(c.n_src1, rng, -3, 4);
    for (auto& v : a) v = static_cast<T>(std::floor(static_cast<double>(v)));
    for (auto& v : b) v = static_cast<T>(std::floor(static_cast<double>(v)));
    CsBuffers buf;
    buf.dst.resize(c.n_dst);
    buf.sel.resize(4096);
    for (auto& x : buf.dst) x = static_cast<uint8_t>(rng());
    for (auto& x : buf.sel) x = static_cast<uint8_t>(rng());
    DevMem da(a.size() * sizeof(T)), db(b.size() * sizeof(T)), ds(4096), dd(c.n_dst), dc(sizeof(VecCase));
    CopyIn(da, a.data(), a.size() * sizeof(T));
    CopyIn(db, b.data(), b.size() * sizeof(T));
    CopyIn(ds, buf.sel.data(), 4096);
    CopyIn(dd, buf.dst.data(), c.n_dst);
    CopyIn(dc, &c, sizeof c);
    ASSERT_EQ(aclrtlaunch_vec_cmpsel(1, stream_, da.get(), db.get(), ds.get(), dd.get(), dc.get()), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    CsBuffers got;
    got.dst.resize(c.n_dst);
    got.sel.resize(4096);
    CopyOut(got.dst.data(), dd, c.n_dst);
    CopyOut(got.sel.data(), ds, 4096);
    const CsBuffers want = CsModel<T>(c, a, b, buf);
    EXPECT_NE(want.dst, buf.dst) << "the case writes nothing: op " << c.op << " form " << c.mask_form << " count " << c.count;
    const std::string where = "op " + std::to_string(c.op) + " dtype " + std::to_string(c.dtype) + " form " +
                              std::to_string(c.mask_form) + " cmp " + std::to_string(c.order) + " repeat " +
                              std::to_string(c.repeat) + " count " + std::to_string(c.count);
    EXPECT_EQ(got.dst, want.dst) << where;
    EXPECT_EQ(got.sel, want.sel) << where;
  }

  template <typename T>
  void RunOp(uint32_t op, uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (uint32_t form = kMaskBits; form <= kMaskCountForm; ++form) {
      const bool register_only = op == kCsRegisterSelect;
      if (register_only && form != kMaskRegister && form != kMaskCounterRegister) continue;
      for (uint32_t mode = 0; mode < 6; ++mode) {
        // At least 16 elements, so that a case always changes some bit.
        VecCase c = RandomCase<T>(op, form, rng, 16, false);
        c.order = mode;
        c.dst_rep = std::max(c.dst_rep, 8 * c.dst_blk);  // Select's repeats write disjoint elements
        c.scalar = 1.0f;
        RunAndCheck<T>(c, rng);
      }
    }
  }

  template <typename T>
  void RunAll(uint64_t seed) {
    for (uint32_t op = 0; op < kCsOpCount; ++op) RunOp<T>(op, seed + op);
  }
};

TEST_F(CmpSelTest, Half) { RunAll<half>(31); }
TEST_F(CmpSelTest, Float) { RunAll<float>(32); }
TEST_F(CmpSelTest, Int16) { RunAll<int16_t>(33); }
TEST_F(CmpSelTest, Int32) { RunAll<int32_t>(34); }

}  // namespace
}  // namespace vectest
