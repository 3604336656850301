// Dispatches and built-ins (hal/executable.h, hal/builtins.h): every built-in a device provides computes what
// its contract says, reads operands given by address when it runs (not when it is submitted), and reports
// overflow through its dispatch; a flag read stores the flag's value. Data moves through the device's
// synchronous copies only, so the tests hold for memory the host cannot address.
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "cts.h"
#include "hal/builtins.h"
#include "hal/executable.h"

namespace hal_cts {
namespace {

class BuiltinSuite : public DeviceTest {
 protected:
  // The built-in `which`, or skips the test: a device may lack one (core then refuses the ACL call).
  const hal::Executable* Builtin(hal::Builtin which) {
    const hal::Executable* e = device_->builtin(which);
    if (e == nullptr) ADD_FAILURE() << "the device declares no built-in " << static_cast<int>(which);
    return e;
  }
  template <typename T>
  void Put(void* dev, const std::vector<T>& v) {
    ASSERT_TRUE(device_->CopyNow(dev, v.data(), v.size() * sizeof(T)).ok());
  }
  template <typename T>
  std::vector<T> Get(const void* dev, size_t n) {
    std::vector<T> v(n);
    EXPECT_TRUE(device_->CopyNow(v.data(), dev, n * sizeof(T)).ok());
    return v;
  }
  static hal::Task DispatchTask(hal::Dispatch* d) {
    hal::Task t;
    t.kind = hal::TaskKind::kDispatch;
    t.dispatch = d;
    return t;
  }
  uint8_t* Dev(size_t offset) { return device_->memory_base() + offset; }
  // A reduce of `params` with one input and one output (the arrays outlive the dispatch), checking overflow.
  static hal::Dispatch ReduceDispatch(const hal::Executable* reduce, const hal::ReduceParams* params,
                                      const void* const* ins, void* const* outs) {
    hal::Dispatch d;
    d.executable = reduce;
    d.inputs = ins;
    d.outputs = outs;
    d.num_inputs = 1;
    d.num_outputs = 1;
    d.params = params;
    d.params_size = sizeof *params;
    d.check_overflow = true;
    return d;
  }
};

TEST_P(BuiltinSuite, AReduceCombinesItsOperandsInStreamOrder) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const hal::Executable* reduce = Builtin(hal::Builtin::kReduce);
  ASSERT_NE(reduce, nullptr);
  constexpr size_t kN = 4096;
  std::mt19937 rng(11);
  std::vector<int32_t> a(kN), b(kN);
  for (size_t i = 0; i < kN; ++i) {
    a[i] = static_cast<int32_t>(rng() % 200001) - 100000;
    b[i] = static_cast<int32_t>(rng() % 200001) - 100000;
  }
  void* dst = Dev(0);
  void* src = Dev(1 << 20);
  Put(dst, a);
  Put(src, b);
  for (hal::ReduceOp op : {hal::ReduceOp::kSum, hal::ReduceOp::kMax}) {
    Put(dst, a);
    hal::ReduceParams params{op, ACL_INT32, kN};
    const void* ins[] = {src};
    void* outs[] = {dst};
    hal::Dispatch d = ReduceDispatch(reduce, &params, ins, outs);
    ASSERT_TRUE(RunAndWait(DispatchTask(&d)));
    EXPECT_EQ(queue_->error(), 0) << queue_->error_message();
    EXPECT_EQ(d.status, 0);
    EXPECT_EQ(d.overflowed, 0) << "no sum of these values overflows int32";
    const auto got = Get<int32_t>(dst, kN);
    for (size_t i = 0; i < kN; ++i) {
      const int32_t want = op == hal::ReduceOp::kSum ? a[i] + b[i] : std::max(a[i], b[i]);
      ASSERT_EQ(got[i], want) << "element " << i;
    }
  }
}

TEST_P(BuiltinSuite, AnOverflowingReduceWrapsOrSaturatesAndSaysItOverflowed) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const hal::Executable* reduce = Builtin(hal::Builtin::kReduce);
  ASSERT_NE(reduce, nullptr);
  for (bool saturate : {false, true}) {
    std::vector<int8_t> a = {100, -100, 5, 127}, b = {100, -100, 6, 1};
    Put(Dev(0), a);
    Put(Dev(4096), b);
    hal::ReduceParams params{hal::ReduceOp::kSum, ACL_INT8, a.size()};
    const void* ins[] = {Dev(4096)};
    void* outs[] = {Dev(0)};
    hal::Dispatch d = ReduceDispatch(reduce, &params, ins, outs);
    d.saturate = saturate;
    ASSERT_TRUE(RunAndWait(DispatchTask(&d)));
    EXPECT_EQ(d.overflowed, 1);
    const auto got = Get<int8_t>(Dev(0), a.size());
    const std::vector<int8_t> want = saturate ? std::vector<int8_t>{127, -128, 11, 127}
                                              : std::vector<int8_t>{-56, 56, 11, -128};
    EXPECT_EQ(got, want) << (saturate ? "saturating" : "wrapping");
  }
}

// A uniform float run of `n` numbers in [lo, hi) with `seed`, its counter at `counter`.
hal::RandomParams Uniform(void* result, void* counter, uint64_t seed, uint64_t n, float lo, float hi) {
  hal::RandomParams p;
  p.function = hal::RandomFunction::kUniform;
  p.dtype = ACL_FLOAT;
  p.result = result;
  p.counter = counter;
  auto imm = [](hal::RandomParam* param, const void* v, uint32_t size) {
    std::memcpy(param->value_or_addr, v, size);
    param->size = size;
  };
  imm(&p.seed, &seed, 8);
  imm(&p.count, &n, 8);
  imm(&p.a, &lo, 4);
  imm(&p.b, &hi, 4);
  return p;
}

TEST_P(BuiltinSuite, RandomNumbersFollowTheirSeedAndCounter) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const hal::Executable* random = Builtin(hal::Builtin::kRandom);
  ASSERT_NE(random, nullptr);
  constexpr uint64_t kN = 1000;
  void* counter = Dev(0);
  void* out = Dev(1 << 20);
  auto draw = [&](uint64_t seed) {
    hal::RandomParams p = Uniform(out, counter, seed, kN, -2.0f, 3.0f);
    hal::Dispatch d;
    d.executable = random;
    d.params = &p;
    d.params_size = sizeof p;
    EXPECT_TRUE(RunAndWait(DispatchTask(&d)));
    EXPECT_EQ(d.status, 0);
    return Get<float>(out, kN);
  };
  const std::vector<uint32_t> zero(4, 0);
  Put(counter, zero);
  const auto first = draw(42);
  EXPECT_NE(Get<uint32_t>(counter, 4), zero) << "the counter advances";
  const auto second = draw(42);
  EXPECT_NE(first, second) << "the next run continues the sequence";
  Put(counter, zero);
  EXPECT_EQ(draw(42), first) << "equal seed and counter reproduce it";
  EXPECT_NE(draw(43), first) << "another seed, another sequence";
  double sum = 0;
  for (float v : first) {
    ASSERT_GE(v, -2.0f);
    ASSERT_LT(v, 3.0f);
    sum += v;
  }
  EXPECT_NEAR(sum / kN, 0.5, 0.25) << "the mean of uniform [-2, 3)";
}

TEST_P(BuiltinSuite, AnIndirectCopyReadsItsPointersWhenItRuns) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const hal::Executable* copy = Builtin(hal::Builtin::kIndirectCopy);
  ASSERT_NE(copy, nullptr);
  constexpr size_t kBytes = 3000;
  std::mt19937 rng(5);
  std::vector<uint8_t> data(kBytes);
  for (auto& b : data) b = static_cast<uint8_t>(rng());
  uint8_t* src = Dev(64 << 10);
  uint8_t* dst = Dev(256 << 10);
  Put(src, data);
  auto** dst_slot = reinterpret_cast<void**>(Dev(0));
  auto** src_slot = reinterpret_cast<const void**>(Dev(64));
  const std::vector<uint64_t> nulls(1, 0);
  Put(dst_slot, nulls);
  Put(src_slot, nulls);
  // The slots are written by tasks queued before the copy: the copy sees their values, not the nulls.
  hal::Task w1;
  w1.kind = hal::TaskKind::kValueWrite;
  w1.dst = dst_slot;
  w1.value = reinterpret_cast<uint64_t>(dst);
  hal::Task w2 = w1;
  w2.dst = src_slot;
  w2.value = reinterpret_cast<uint64_t>(src);
  hal::IndirectCopyParams p{dst_slot, src_slot, /*dst_offset=*/7, /*src_offset=*/3, /*count=*/kBytes - 10};
  hal::Dispatch d;
  d.executable = copy;
  d.params = &p;
  d.params_size = sizeof p;
  queue_->Submit(w1);
  queue_->Submit(w2);
  ASSERT_TRUE(RunAndWait(DispatchTask(&d)));
  EXPECT_EQ(d.status, 0);
  const auto got = Get<uint8_t>(dst + 7, kBytes - 10);
  EXPECT_TRUE(std::equal(got.begin(), got.end(), data.begin() + 3));
}

TEST_P(BuiltinSuite, ADescriptorCopyFollowsItsDescriptorAndRefusesAForeignOne) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  const hal::Executable* copy = Builtin(hal::Builtin::kDescriptorCopy);
  ASSERT_NE(copy, nullptr);
  std::vector<uint32_t> data(500);
  std::mt19937 rng(8);
  for (auto& v : data) v = rng();
  uint8_t* src = Dev(64 << 10);
  uint8_t* dst = Dev(128 << 10);
  Put(src, data);
  hal::CopyDescriptor desc;
  desc.src = src;
  desc.dst = dst;
  desc.count = data.size() * 4;
  uint8_t* desc_mem = Dev(0);
  ASSERT_TRUE(device_->CopyNow(desc_mem, &desc, sizeof desc).ok());
  const void* ins[] = {desc_mem};
  hal::Dispatch d;
  d.executable = copy;
  d.inputs = ins;
  d.num_inputs = 1;
  ASSERT_TRUE(RunAndWait(DispatchTask(&d)));
  EXPECT_EQ(d.status, 0);
  EXPECT_EQ(Get<uint32_t>(dst, data.size()), data);

  desc.magic = 0x12345678;  // not a descriptor the runtime wrote
  ASSERT_TRUE(device_->CopyNow(desc_mem, &desc, sizeof desc).ok());
  hal::Dispatch bad = d;
  bad.status = 0;
  ASSERT_TRUE(RunAndWait(DispatchTask(&bad)));
  EXPECT_EQ(bad.status, ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(queue_->error(), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_FALSE(queue_->error_message().empty());
  queue_->ClearError();
}

TEST_P(BuiltinSuite, AFlagReadStoresTheFlagsValueWhenItRuns) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  auto* word = reinterpret_cast<uint64_t*>(Dev(0));
  const std::vector<uint64_t> junk(1, 0xfeedfacecafebeefull);
  Put(word, junk);
  hal::Task signal;
  signal.kind = hal::TaskKind::kFlagSignal;
  signal.flag = flag.get();
  signal.value = 17;
  queue_->Submit(signal);
  hal::Task read;
  read.kind = hal::TaskKind::kFlagRead;
  read.flag = flag.get();
  read.dst = word;
  ASSERT_TRUE(RunAndWait(read));
  EXPECT_EQ(Get<uint64_t>(word, 1)[0], 17u);
}

INSTANTIATE_TEST_SUITE_P(Cts, BuiltinSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
