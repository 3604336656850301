// Gear models (atc --dynamic_batch_size / --dynamic_image_size / --dynamic_dims) through the aclmdl API:
// the description (hidden selector input, -1 dims, largest sizes, the gear lists), each gear's results
// against the reference on random data, the default gear, random gear sequences, aclmdlGetCurOutputDims,
// and every refusal with its code: no such gear, the wrong selector index, a selector buffer too small,
// a dims request of the wrong length or with a static dim changed, a request of the wrong kind.
#include <cstdio>
#include <cstdlib>
#include <random>

#include "acl/error_codes/ge_error_codes.h"
#include "model_fixture.h"

namespace npurt::test {
namespace {

class GearModelTest : public ModelTest {
 protected:
  // Loads gear model `kind` (1 batch, 2 image size, 3 dims) and describes it.
  void LoadGears(int kind) {
    gm_ = MakeGearConvRelu(kind);
    gear_path_ = WriteTemp(::testing::UnitTest::GetInstance()->current_test_info()->name() + std::string("_gear.om"),
                           gm_.file);
    ASSERT_EQ(aclmdlLoadFromFile(gear_path_.c_str(), &id_), ACL_SUCCESS) << Message();
    desc_ = aclmdlCreateDesc();
    ASSERT_EQ(aclmdlGetDesc(desc_, id_), ACL_SUCCESS) << Message();
    const size_t max_x = aclmdlGetInputSizeByIndex(desc_, 0);
    const size_t max_y = aclmdlGetOutputSizeByIndex(desc_, 0);
    x_ = Device(max_x);
    y_ = Device(max_y);
    sel_ = Device(aclmdlGetInputSizeByIndex(desc_, 1));
    in_ = Dataset({x_, sel_}, {max_x, aclmdlGetInputSizeByIndex(desc_, 1)});
    out_ = Dataset({y_}, {max_y});
  }
  void TearDown() override {
    if (desc_ != nullptr) aclmdlDestroyDesc(desc_);
    if (id_ != 0) aclmdlUnload(id_);
    ReleaseDatasets();
    std::remove(gear_path_.c_str());
    ModelTest::TearDown();
  }
  aclError Select(size_t g) {
    const auto& v = gm_.values[g];
    switch (gm_.kind) {
      case 1: return aclmdlSetDynamicBatchSize(id_, in_, 1, static_cast<uint64_t>(v[0]));
      case 2: return aclmdlSetDynamicHWSize(id_, in_, 1, static_cast<uint64_t>(v[0]), static_cast<uint64_t>(v[1]));
      default: {
        aclmdlIODims dims{};
        for (int64_t d : gm_.x_dims[g]) dims.dims[dims.dimCount++] = d;
        return aclmdlSetInputDynamicDims(id_, in_, 1, &dims);
      }
    }
  }
  // Runs gear g (selected first unless `select` is false) on fresh random data and checks y.
  void RunAndCheck(size_t g, uint32_t seed, bool select = true) {
    if (select) {
      ASSERT_EQ(Select(g), ACL_SUCCESS) << Message();
    }
    const std::vector<int64_t>& xd = gm_.x_dims[g];
    const std::vector<float> x = RandomFloats(GearConvRelu::Elements(xd), seed);
    ASSERT_EQ(aclrtMemcpy(x_, x.size() * 4, x.data(), x.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    // The output buffer is the largest gear's: what the gear does not write keeps this sentinel (a gear
    // that ran a larger graph would overwrite it).
    const size_t max_y = aclmdlGetOutputSizeByIndex(desc_, 0);
    ASSERT_EQ(aclrtMemset(y_, max_y, 0x7b, max_y), ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecute(id_, in_, out_), ACL_SUCCESS) << Message();
    const std::vector<float> want = gm_.Reference(x, xd);
    const std::vector<float> all = Download(y_, max_y / 4);
    ExpectNear(std::vector<float>(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(want.size())), want, "y");
    const auto* bytes = reinterpret_cast<const uint8_t*>(all.data());
    for (size_t i = want.size() * 4; i < max_y; ++i) ASSERT_EQ(bytes[i], 0x7b) << "gear " << g << " wrote past its output";
  }

  GearConvRelu gm_;
  std::string gear_path_;
  uint32_t id_ = 0;
  aclmdlDesc* desc_ = nullptr;
  void *x_ = nullptr, *y_ = nullptr, *sel_ = nullptr;
  aclmdlDataset *in_ = nullptr, *out_ = nullptr;
};

TEST_F(GearModelTest, BatchDescriptionHasTheSelectorAndTheLargestSizes) {
  LoadGears(1);
  ASSERT_EQ(aclmdlGetNumInputs(desc_), 2u);
  EXPECT_STREQ(aclmdlGetInputNameByIndex(desc_, 1), ACL_DYNAMIC_TENSOR_NAME);
  size_t idx = 0;
  ASSERT_EQ(aclmdlGetInputIndexByName(desc_, ACL_DYNAMIC_TENSOR_NAME, &idx), ACL_SUCCESS);
  EXPECT_EQ(idx, aclmdlGetNumInputs(desc_) - 1);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 4u * 3 * 8 * 8 * 4);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), 4u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc_, 0), 4u * 4 * 8 * 8 * 4);
  EXPECT_EQ(aclmdlGetInputDataType(desc_, 1), ACL_INT32);
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
  ASSERT_EQ(dims.dimCount, 4u);
  EXPECT_EQ(dims.dims[0], -1);
  EXPECT_EQ(dims.dims[1], 3);
  ASSERT_EQ(aclmdlGetOutputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[0], 4);
  aclmdlIODimsRange range{};
  ASSERT_EQ(aclmdlGetInputDimsRange(desc_, 0, &range), ACL_SUCCESS);
  ASSERT_EQ(range.rangeCount, 4u);
  EXPECT_EQ(range.range[0][0], 1);  // the batch gears span 1 to 4
  EXPECT_EQ(range.range[0][1], 4);
  EXPECT_EQ(range.range[2][0], 8);
  EXPECT_EQ(range.range[2][1], 8);
  aclmdlBatch batch{};
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  ASSERT_EQ(batch.batchCount, 3u);
  EXPECT_EQ(batch.batch[0], 1u);
  EXPECT_EQ(batch.batch[1], 2u);
  EXPECT_EQ(batch.batch[2], 4u);
  aclmdlHW hw{};
  ASSERT_EQ(aclmdlGetDynamicHW(desc_, static_cast<size_t>(-1), &hw), ACL_SUCCESS);
  EXPECT_EQ(hw.hwCount, 0u);
  size_t gears = 99;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, static_cast<size_t>(-1), &gears), ACL_SUCCESS);
  EXPECT_EQ(gears, 0u);
  // The file's description is the loaded model's.
  aclmdlDesc* from_file = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDescFromFile(from_file, gear_path_.c_str()), ACL_SUCCESS) << Message();
  EXPECT_EQ(aclmdlGetInputSizeByIndex(from_file, 0), aclmdlGetInputSizeByIndex(desc_, 0));
  ASSERT_EQ(aclmdlGetDynamicBatch(from_file, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 3u);
  aclmdlDestroyDesc(from_file);
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(gear_path_.c_str(), &work, &weight), ACL_SUCCESS);
  EXPECT_EQ(work, gm_.arena);  // one arena, the largest gear's
}

TEST_F(GearModelTest, EveryBatchGearMatchesTheReference) {
  LoadGears(1);
  for (size_t g = 0; g < gm_.values.size(); ++g) {
    RunAndCheck(g, 100 + static_cast<uint32_t>(g));
    // The selector holds the batch (4-byte elements: the buffer has 4 bytes).
    int32_t written = 0;
    ASSERT_EQ(aclrtMemcpy(&written, 4, sel_, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(written, gm_.values[g][0]);
    aclmdlIODims cur{};
    ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &cur), ACL_SUCCESS);
    EXPECT_EQ(cur.dims[0], gm_.values[g][0]);
    EXPECT_STREQ(cur.name, "y");
  }
}

TEST_F(GearModelTest, WithoutAChoiceTheLargestGearRuns) {
  LoadGears(1);
  aclmdlIODims cur{};
  ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &cur), ACL_SUCCESS);
  EXPECT_EQ(cur.dims[0], 4);
  RunAndCheck(gm_.default_gear, 7, /*select=*/false);
}

TEST_F(GearModelTest, RandomGearSequencesMatchTheReference) {
  LoadGears(1);
  std::mt19937 rng(2026);
  for (int i = 0; i < 24; ++i) {
    const size_t g = rng() % gm_.values.size();
    RunAndCheck(g, 1000 + static_cast<uint32_t>(i));
  }
}

TEST_F(GearModelTest, AsyncExecutionsOfDifferentGearsQueueInOrder) {
  LoadGears(1);
  // Two datasets, each with its own gear and buffers, queued back to back on one stream.
  std::vector<std::vector<float>> xs, wants;
  std::vector<void*> ys;
  std::vector<aclmdlDataset*> ins, outs;
  for (size_t g : {size_t{0}, size_t{2}, size_t{1}}) {
    const auto& xd = gm_.x_dims[g];
    xs.push_back(RandomFloats(GearConvRelu::Elements(xd), 50 + static_cast<uint32_t>(g)));
    wants.push_back(gm_.Reference(xs.back(), xd));
    void* x = Upload(xs.back());
    void* sel = Device(4);
    ys.push_back(Device(wants.back().size() * 4));
    ins.push_back(Dataset({x, sel}, {xs.back().size() * 4, 4}));
    outs.push_back(Dataset({ys.back()}, {wants.back().size() * 4}));
    ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, ins.back(), 1, static_cast<uint64_t>(gm_.values[g][0])), ACL_SUCCESS)
        << Message();
  }
  for (size_t i = 0; i < ins.size(); ++i) ASSERT_EQ(aclmdlExecuteAsync(id_, ins[i], outs[i], stream_), ACL_SUCCESS) << Message();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (size_t i = 0; i < ins.size(); ++i) ExpectNear(Download(ys[i], wants[i].size()), wants[i], "y");
}

// Executions of different gears share the model's arena: queued on two streams, alternating gears, each must
// still run after the previous one (as a static model's replays do), so every result is right.
TEST_F(GearModelTest, GearsQueuedOnTwoStreamsRunOneAfterAnother) {
  LoadGears(2);  // image-size gears: different sizes write the shared arena differently
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  std::vector<std::vector<float>> wants;
  std::vector<void*> ys;
  std::vector<aclmdlDataset*> ins, outs;
  for (int i = 0; i < 12; ++i) {
    const size_t g = static_cast<size_t>(i) % gm_.values.size();
    const auto& xd = gm_.x_dims[g];
    const std::vector<float> x = RandomFloats(GearConvRelu::Elements(xd), 700 + static_cast<uint32_t>(i));
    wants.push_back(gm_.Reference(x, xd));
    void* xbuf = Upload(x);
    ys.push_back(Device(wants.back().size() * 4));
    ins.push_back(Dataset({xbuf, Device(8)}, {x.size() * 4, 8}));
    outs.push_back(Dataset({ys.back()}, {wants.back().size() * 4}));
    ASSERT_EQ(aclmdlSetDynamicHWSize(id_, ins.back(), 1, static_cast<uint64_t>(gm_.values[g][0]),
                                     static_cast<uint64_t>(gm_.values[g][1])),
              ACL_SUCCESS);
    ASSERT_EQ(aclmdlExecuteAsync(id_, ins.back(), outs.back(), i % 2 == 0 ? stream_ : second), ACL_SUCCESS)
        << Message();
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  for (size_t i = 0; i < ins.size(); ++i) {
    SCOPED_TRACE("execution " + std::to_string(i) + ", gear " + std::to_string(i % gm_.values.size()));
    ExpectNear(Download(ys[i], wants[i].size()), wants[i], "y");
  }
  ASSERT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

// msame on a gear model: --dymBatch picks the gear, the input file is that gear's size, and the output file
// holds that gear's output (aclmdlGetCurOutputDims), equal to the reference; a batch that is no gear fails.
TEST_F(GearModelTest, MsameRunsTheGearDymBatchNames) {
  gm_ = MakeGearConvRelu(1);
  const std::string model = WriteTemp("msame_gears.om", gm_.file);
  const std::string dir = model + "_out";
  const std::vector<float> x = RandomFloats(GearConvRelu::Elements(gm_.x_dims[1]), 77);  // batch 2
  const std::vector<uint8_t> bytes(reinterpret_cast<const uint8_t*>(x.data()),
                                   reinterpret_cast<const uint8_t*>(x.data()) + x.size() * 4);
  const std::string input = WriteTemp("msame_gears_x.bin", bytes);
  const std::string cmd = std::string(MSAME_BINARY) + " --model " + model + " --input " + input + " --output " + dir +
                          " --outfmt BIN --dymBatch 2 > " + dir + ".log 2>&1";
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  FILE* p = popen(("ls " + dir + "/*/*_output_0.bin").c_str(), "r");
  char path[4096] = {0};
  ASSERT_NE(p, nullptr);
  ASSERT_NE(std::fgets(path, sizeof path, p), nullptr);
  pclose(p);
  std::string out_path(path);
  out_path.erase(out_path.find_last_not_of("\n") + 1);
  FILE* f = std::fopen(out_path.c_str(), "rb");
  ASSERT_NE(f, nullptr) << out_path;
  const std::vector<float> want = gm_.Reference(x, gm_.x_dims[1]);
  std::vector<float> got(want.size() + 1);
  const size_t n = std::fread(got.data(), 4, got.size(), f);
  std::fclose(f);
  ASSERT_EQ(n, want.size()) << "the output file holds the batch-2 gear's output";
  got.resize(n);
  ExpectNear(got, want, "y");
  const std::string bad = std::string(MSAME_BINARY) + " --model " + model + " --output " + dir +
                          " --dymBatch 3 > /dev/null 2>&1";
  EXPECT_NE(std::system(bad.c_str()), 0);
  std::system(("rm -rf " + dir + " " + dir + ".log").c_str());
  std::remove(model.c_str());
  std::remove(input.c_str());
}

TEST_F(GearModelTest, BatchRefusals) {
  LoadGears(1);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 3), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_NE(Message().find("1, 2, 4"), std::string::npos) << Message();
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 0, 2), ACL_ERROR_INVALID_PARAM);  // x, not the selector
  EXPECT_NE(Message().find("not the gear selector"), std::string::npos) << Message();
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 7, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, nullptr, 1, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_ + 1000, in_, 1, 2), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_EQ(aclmdlSetDynamicHWSize(id_, in_, 1, 8, 8), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_NE(Message().find("dynamic batch"), std::string::npos) << Message();
  // A selector buffer too small for one 4-byte value.
  void* tiny = Device(2);
  aclmdlDataset* small = Dataset({x_, tiny}, {aclmdlGetInputSizeByIndex(desc_, 0), 2});
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, small, 1, 2), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
  // A selector with no memory.
  aclmdlDataset* empty = Dataset({x_, nullptr}, {aclmdlGetInputSizeByIndex(desc_, 0), 0});
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, empty, 1, 2), ACL_ERROR_INVALID_PARAM);
  // An input buffer smaller than the chosen gear reads is refused at execution; one that fits it runs.
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 2), ACL_SUCCESS);
  aclmdlDataset* short_x = Dataset({x_, sel_}, {1 * 3 * 8 * 8 * 4, 4});
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, short_x, 1, 2), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, short_x, out_), ACL_ERROR_GE_PARAM_INVALID);
  EXPECT_NE(Message().find("needs"), std::string::npos) << Message();
  ASSERT_EQ(aclmdlSetDynamicBatchSize(id_, short_x, 1, 1), ACL_SUCCESS);
  EXPECT_EQ(aclmdlExecute(id_, short_x, out_), ACL_SUCCESS) << Message();
  // GetInputDynamicDims on a batch model: no dims gears.
  aclmdlIODims dims[2];
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), dims, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), dims, 0), ACL_SUCCESS);
}

TEST_F(GearModelTest, ImageSizeGears) {
  LoadGears(2);
  aclmdlHW hw{};
  ASSERT_EQ(aclmdlGetDynamicHW(desc_, static_cast<size_t>(-1), &hw), ACL_SUCCESS);
  ASSERT_EQ(hw.hwCount, 3u);
  EXPECT_EQ(hw.hw[2][0], 4u);
  EXPECT_EQ(hw.hw[2][1], 12u);
  aclmdlBatch batch{};
  ASSERT_EQ(aclmdlGetDynamicBatch(desc_, &batch), ACL_SUCCESS);
  EXPECT_EQ(batch.batchCount, 0u);
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(desc_, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(dims.dims[2], -1);
  EXPECT_EQ(dims.dims[3], -1);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 1), 8u);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc_, 0), 1u * 3 * 16 * 16 * 4);
  for (size_t g = 0; g < gm_.values.size(); ++g) {
    RunAndCheck(g, 300 + static_cast<uint32_t>(g));
    aclmdlIODims cur{};
    ASSERT_EQ(aclmdlGetCurOutputDims(desc_, 0, &cur), ACL_SUCCESS);
    EXPECT_EQ(cur.dims[2], gm_.values[g][0]);
    EXPECT_EQ(cur.dims[3], gm_.values[g][1]);
    // 8 bytes hold two 4-byte values.
    int32_t written[2] = {0, 0};
    ASSERT_EQ(aclrtMemcpy(written, 8, sel_, 8, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(written[0], gm_.values[g][0]);
    EXPECT_EQ(written[1], gm_.values[g][1]);
  }
  EXPECT_EQ(aclmdlSetDynamicHWSize(id_, in_, 1, 8, 16), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  EXPECT_EQ(aclmdlSetDynamicHWSize(id_, in_, 1, 0, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id_, in_, 1, 1), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
}

TEST_F(GearModelTest, DimsGears) {
  LoadGears(3);
  size_t count = 0;
  ASSERT_EQ(aclmdlGetInputDynamicGearCount(desc_, static_cast<size_t>(-1), &count), ACL_SUCCESS);
  ASSERT_EQ(count, 3u);
  std::vector<aclmdlIODims> gears(count);
  ASSERT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), gears.data(), count), ACL_SUCCESS);
  for (size_t g = 0; g < count; ++g) {
    ASSERT_EQ(gears[g].dimCount, 4u);  // every dim of x, not only the dynamic ones
    for (size_t d = 0; d < 4; ++d) EXPECT_EQ(gears[g].dims[d], gm_.x_dims[g][d]);
  }
  EXPECT_EQ(aclmdlGetInputDynamicGearCount(desc_, 0, &count), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlGetInputDynamicDims(desc_, static_cast<size_t>(-1), gears.data(), 2), ACL_ERROR_INVALID_PARAM);
  for (size_t g = 0; g < count; ++g) RunAndCheck(g, 500 + static_cast<uint32_t>(g));
  // Refusals: the wrong length, a static dim changed, no such gear.
  aclmdlIODims req{};
  req.dimCount = 3;
  req.dims[0] = 1;
  req.dims[1] = 3;
  req.dims[2] = 8;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, &req), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
  req.dimCount = 4;
  req.dims[3] = 8;
  req.dims[1] = 5;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, &req), ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID);
  EXPECT_NE(Message().find("static"), std::string::npos) << Message();
  req.dims[1] = 3;
  req.dims[2] = 32;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, &req), ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID);
  req.dimCount = 0;
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, &req), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlSetInputDynamicDims(id_, in_, 1, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(GearModelTest, AStaticModelHasNoGears) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS) << Message();
  void* sel = Device(8);
  aclmdlDataset* in = Dataset({sel}, {8});
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id, in, 0, 2), ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID);
  EXPECT_NE(Message().find("static"), std::string::npos) << Message();
  aclmdlDesc* d = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(d, id), ACL_SUCCESS);
  aclmdlIODims cur{}, compiled{};
  ASSERT_EQ(aclmdlGetCurOutputDims(d, 0, &cur), ACL_SUCCESS);
  ASSERT_EQ(aclmdlGetOutputDims(d, 0, &compiled), ACL_SUCCESS);
  EXPECT_EQ(cur.dimCount, compiled.dimCount);
  EXPECT_EQ(cur.dims[0], compiled.dims[0]);
  aclmdlDestroyDesc(d);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

}  // namespace
}  // namespace npurt::test
