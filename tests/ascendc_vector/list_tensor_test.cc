// ListTensorDesc / TensorDesc: a host-built tensor list (ptrOffset, per tensor dim|index and shape words, data
// pointers) read back in a kernel on random shapes and data; malformed lists fail the kernel with what was wrong.
#include <cstring>

#include "aclrtlaunch_vec_list_describe.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class ListTensorTest : public VecTest {
 protected:
  // The list's words for tensors of `shapes` whose data are at `ptrs`.
  static std::vector<uint64_t> Layout(const std::vector<std::vector<uint64_t>>& shapes, const std::vector<void*>& ptrs) {
    std::vector<uint64_t> w(1);
    for (size_t i = 0; i < shapes.size(); ++i) {
      w.push_back(shapes[i].size() | (uint64_t{static_cast<uint32_t>(i * 10 + 3)} << 32));
      w.insert(w.end(), shapes[i].begin(), shapes[i].end());
    }
    w[0] = w.size() * 8;
    for (void* p : ptrs) w.push_back(reinterpret_cast<uintptr_t>(p));
    return w;
  }
};

TEST_F(ListTensorTest, KernelReadsShapesIndicesAndDataOfEachTensor) {
  std::mt19937_64 rng(91);
  const std::vector<std::vector<uint64_t>> shapes = {{3, 5}, {7}, {2, 3, 4}};
  std::vector<std::unique_ptr<DevMem>> data;
  std::vector<void*> ptrs;
  std::vector<float> sums;
  for (const auto& s : shapes) {
    size_t n = 1;
    for (uint64_t d : s) n *= d;
    const std::vector<float> v = RandomValues<float>(n, rng, -2, 2);
    data.push_back(std::make_unique<DevMem>(n * 4));
    CopyIn(*data.back(), v.data(), n * 4);
    ptrs.push_back(data.back()->get());
    float sum = 0;
    for (float x : v) sum += x;
    sums.push_back(sum);
  }
  const std::vector<uint64_t> list = Layout(shapes, ptrs);
  DevMem dl(list.size() * 8), dout(64 * 8);
  CopyIn(dl, list.data(), list.size() * 8);
  ASSERT_EQ(aclrtlaunch_vec_list_describe(1, stream_, dl.get(), dout.get(), static_cast<uint32_t>(list.size() * 8), 3),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<uint64_t> out(64);
  CopyOut(out.data(), dout, 64 * 8);
  size_t w = 0;
  ASSERT_EQ(out[w++], 3u);
  for (size_t i = 0; i < shapes.size(); ++i) {
    EXPECT_EQ(out[w++], shapes[i].size());
    EXPECT_EQ(out[w++], i * 10 + 3);
    for (uint64_t d : shapes[i]) EXPECT_EQ(out[w++], d);
    float got = 0;
    const uint32_t bits = static_cast<uint32_t>(out[w++]);
    std::memcpy(&got, &bits, sizeof got);
    EXPECT_EQ(got, sums[i]) << "tensor " << i;
  }
}

TEST_F(ListTensorTest, MalformedListsFailTheKernelWithTheReason) {
  DevMem data(64);
  const std::vector<std::vector<uint64_t>> shapes = {{4}, {2, 2}};
  const std::vector<uint64_t> good = Layout(shapes, {data.get(), data.get()});
  struct Case {
    std::vector<uint64_t> words;
    uint32_t length, count;
    const char* reason;
  };
  std::vector<uint64_t> bad_offset = good;
  bad_offset[0] = 12;
  std::vector<uint64_t> runs_past = good;
  runs_past[3] = 9 | (uint64_t{1} << 32);  // the second tensor claims 9 dimensions
  for (const Case& c : {Case{bad_offset, 0xffffffffu, 0xffffffffu, "ptrOffset"},
                        Case{runs_past, 0xffffffffu, 0xffffffffu, "runs past"},
                        Case{good, 0xffffffffu, 5, "shapeSize says 5"},
                        Case{good, 40, 0xffffffffu, "length says 40"}}) {
    DevMem dl(c.words.size() * 8), dout(64 * 8);
    CopyIn(dl, c.words.data(), c.words.size() * 8);
    ASSERT_EQ(aclrtlaunch_vec_list_describe(1, stream_, dl.get(), dout.get(), c.length, c.count), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << c.reason;
    EXPECT_NE(RecentError().find(c.reason), std::string::npos) << RecentError();
    ASSERT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
}

}  // namespace
}  // namespace vectest
