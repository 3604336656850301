// The operator backend's side of shapes that depend on the data (hal::OpRequest::shape_slots): NonZero computes
// its coordinates and writes its count to its shape slot, refuses to compile without slots, and a slotted
// executable tiles at the dims its slots hold, refusing dims that do not fit the buffers planned for its bounds.
// Run inline on host memory (no device).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/op_attrs.h"
#include "core/operators.h"

namespace npurt::ops {
namespace {

// Runs a slotted program once on host buffers with the given slots.
int32_t RunSlotted(const core::OperatorProgram& p, std::vector<const void*> ins, std::vector<void*> outs,
                   std::vector<int64_t*> slots, std::string* message) {
  hal::Dispatch d;
  d.executable = p.executable();
  d.inputs = ins.data();
  d.outputs = outs.data();
  d.num_inputs = static_cast<uint32_t>(ins.size());
  d.num_outputs = static_cast<uint32_t>(outs.size());
  d.shapes = slots.data();
  d.max_parallelism = 1;
  return d.executable->Run(d, message);
}

// NonZero of a random [5, 7] tensor at its bound, then of its first 3 rows (the slot says [3, 7]): the
// coordinates row-major, packed at the actual count, and the count in the output's slot.
TEST(ShapeSlots, NonZeroWritesCoordinatesAndItsCount) {
  const std::vector<TensorSpec> in = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {5, 7}}};
  const std::vector<TensorSpec> req = {TensorSpec{ACL_INT64, ACL_FORMAT_ND, {2, 35}}};
  const AttrMap attrs;
  core::OperatorCall call{"NonZero", &in, &req, &attrs, true};
  call.shape_slots = true;
  auto built = core::BuildOperator(call);
  ASSERT_TRUE(built.ok()) << built.status().message();
  EXPECT_EQ(built->outputs[0].dims, std::vector<int64_t>({2, 35}));
  std::mt19937 rng(7);
  std::vector<float> x(35);
  for (float& v : x) v = rng() % 3 == 0 ? 0.0f : static_cast<float>(static_cast<int>(rng() % 200) - 100) / 8.0f;
  x[3] = -0.0f;  // zero
  x[4] = std::nanf("");  // not zero
  for (int64_t rows : {5, 3, 0}) {
    std::vector<int64_t> want_r, want_c;
    for (int64_t i = 0; i < rows * 7; ++i) {
      if (x[static_cast<size_t>(i)] != 0.0f || std::isnan(x[static_cast<size_t>(i)])) {
        want_r.push_back(i / 7);
        want_c.push_back(i % 7);
      }
    }
    std::vector<int64_t> y(70, -9);
    int64_t in_dims[2] = {rows, 7}, out_dims[2] = {0, 0};
    std::string message;
    ASSERT_EQ(RunSlotted(*built->program, {x.data()}, {y.data()}, {in_dims, out_dims}, &message), 0) << message;
    const auto n = static_cast<int64_t>(want_r.size());
    EXPECT_EQ(out_dims[0], 2);
    EXPECT_EQ(out_dims[1], n) << rows << " rows";
    EXPECT_EQ(std::vector<int64_t>(y.begin(), y.begin() + n), want_r);
    EXPECT_EQ(std::vector<int64_t>(y.begin() + n, y.begin() + 2 * n), want_c);
  }
}

// NonZero needs shape slots: as a single operator its output cannot be described in advance.
TEST(ShapeSlots, NonZeroOutsideAModelIsRefused) {
  const std::vector<TensorSpec> in = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {8}}};
  const std::vector<TensorSpec> out = {TensorSpec{ACL_INT64, ACL_FORMAT_ND, {1, -1}}};
  const AttrMap attrs;
  core::OperatorCall call{"NonZero", &in, &out, &attrs, true};
  auto built = core::BuildOperator(call);
  ASSERT_FALSE(built.ok());
  EXPECT_EQ(built.status().code(), ACL_ERROR_OP_UNSUPPORTED_DYNAMIC);
  EXPECT_NE(built.status().message().find("depends on the input data"), std::string::npos) << built.status().message();
  call.compile = false;  // inference alone gives the bound
  auto inferred = core::BuildOperator(call);
  ASSERT_TRUE(inferred.ok()) << inferred.status().message();
  EXPECT_EQ(inferred->outputs[0].dims, std::vector<int64_t>({1, 8}));
}

// A slotted executable checks the dims its slots hold against the bounds its buffers were planned for: dims that
// do not fit (a forged model, a corrupted slot) fail the run with a message, and a good run after works.
TEST(ShapeSlots, SlotDimsBeyondTheBoundFailTheRun) {
  const std::vector<TensorSpec> in = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {16}}};
  const std::vector<TensorSpec> req = {TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {16}}};
  const AttrMap attrs;
  core::OperatorCall call{"Relu", &in, &req, &attrs, true};
  call.shape_slots = true;
  auto built = core::BuildOperator(call);
  ASSERT_TRUE(built.ok()) << built.status().message();
  std::vector<float> x(16, -1.0f), y(16, 7.0f);
  x[2] = 3.0f;
  int64_t in_dims[1] = {17}, out_dims[1] = {0};
  int64_t* slots[2] = {in_dims, out_dims};
  const void* ins[1] = {x.data()};
  void* outs[1] = {y.data()};
  hal::Dispatch d;
  d.executable = built->program->executable();
  d.inputs = ins;
  d.outputs = outs;
  d.num_inputs = 1;
  d.num_outputs = 1;
  d.shapes = slots;
  d.max_parallelism = 1;
  std::string message;
  EXPECT_EQ(d.executable->Run(d, &message), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(message.find("does not fit"), std::string::npos) << message;
  in_dims[0] = -3;
  EXPECT_EQ(d.executable->Run(d, &message), ACL_ERROR_RT_PARAM_INVALID);
  in_dims[0] = 4;  // four elements: the kernel tiles at [4] and leaves the rest of y alone
  EXPECT_EQ(d.executable->Run(d, &message), 0) << message;
  EXPECT_EQ(out_dims[0], 4);
  EXPECT_EQ(std::vector<float>(y.begin(), y.begin() + 5), std::vector<float>({0.0f, 0.0f, 3.0f, 0.0f, 7.0f}));
  d.shapes = nullptr;
  EXPECT_EQ(d.executable->Run(d, &message), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(message.find("no shape slots"), std::string::npos) << message;
}


}  // namespace
}  // namespace npurt::ops
