// Models whose shapes depend on the data (ONNX NonZero; docs/models.md, "Shapes that depend on the data"): the
// dims of NonZero's output and of everything computed from it are known on the device only. atc plans them for
// an upper bound and gives each a shape slot; the operators that read them tile at each run's dims on the device;
// the output dataset's descriptors say the actual dims once the execution ran. Checked against a host reference
// on random data (counts from none to all), asynchronously on two streams, through the description, and every
// refusal: operators that would bake a bound into the graph, and forged slots (tests/ops/shape_slots_test.cc
// checks the backend's side).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "../atc/onnx_builder.h"
#include "acl/error_codes/ge_error_codes.h"
#include "model_fixture.h"
#include "models/om/om_reader.h"
#include "models/om/om_writer.h"

namespace npurt::test::data_dependent {
namespace {

namespace fs = std::filesystem;
using atc::testing::OnnxBuilder;

constexpr int64_t kN = 64;            // x [64]
constexpr int64_t kR = 4, kC = 5;     // m [4, 5]

// x [64] -> Relu -> NonZero -> Squeeze(0) -> idx [n]; g = Gather(x, idx) [n]; s = ReduceSum(g * g) [];
// m [4, 5] -> NonZero -> Transpose -> Cast float + 1 -> coords [n2, 2]; row = Flatten(Unsqueeze(g, 0), 1) [1, n].
void BuildOnnx(const std::string& path) {
  OnnxBuilder g(13);
  g.Input("x", {kN});
  g.Input("m", {kR, kC});
  g.Ints("axes0", {0});
  g.Node("Relu", {"x"}, {"r"});
  g.Node("NonZero", {"r"}, {"nz"});
  g.Node("Squeeze", {"nz", "axes0"}, {"idx"});
  OnnxBuilder::AttrInt(g.Node("Gather", {"x", "idx"}, {"g"}), "axis", 0);
  g.Node("Mul", {"g", "g"}, {"g2"});
  OnnxBuilder::AttrInt(g.Node("ReduceSum", {"g2"}, {"s"}), "keepdims", 0);
  g.Node("NonZero", {"m"}, {"mz"});
  OnnxBuilder::AttrInts(g.Node("Transpose", {"mz"}, {"mt"}), "perm", {1, 0});
  OnnxBuilder::AttrInt(g.Node("Cast", {"mt"}, {"mf"}), "to", onnx::TensorProto::FLOAT);
  g.Weight("one", {1}, 1.0f, 1.0f);
  g.Node("Add", {"mf", "one"}, {"coords"});
  g.Node("Unsqueeze", {"g", "axes0"}, {"gu"});
  OnnxBuilder::AttrInt(g.Node("Flatten", {"gu"}, {"row"}), "axis", 1);
  g.Output("g");
  g.Output("s");
  g.Output("coords");
  g.Output("row");
  ASSERT_TRUE(g.Save(path));
}

struct Expected {
  std::vector<float> g;       // the positive elements of x, in order
  float s = 0;                // their sum of squares
  std::vector<float> coords;  // [n2, 2]: (row + 1, col + 1) of m's non-zero elements, row-major
};

Expected Reference(const std::vector<float>& x, const std::vector<float>& m) {
  Expected e;
  for (float v : x) {
    if (v > 0) {
      e.g.push_back(v);
      e.s += v * v;
    }
  }
  for (int64_t r = 0; r < kR; ++r) {
    for (int64_t c = 0; c < kC; ++c) {
      if (m[static_cast<size_t>(r * kC + c)] == 0.0f) continue;
      e.coords.push_back(static_cast<float>(r + 1));
      e.coords.push_back(static_cast<float>(c + 1));
    }
  }
  return e;
}

// x with `positives` positive elements at random places (the rest negative or zero); m with zeros where a
// coin says so.
std::vector<float> MakeX(int positives, std::mt19937& rng) {
  std::vector<float> x = RandomFloats(kN, rng());
  for (float& v : x) v = -std::fabs(v) - (rng() % 4 == 0 ? 0.0f : 0.25f);
  std::vector<size_t> at(kN);
  for (size_t i = 0; i < at.size(); ++i) at[i] = i;
  std::shuffle(at.begin(), at.end(), rng);
  for (int k = 0; k < positives; ++k) x[at[static_cast<size_t>(k)]] = 0.125f + static_cast<float>(rng() % 1000) / 500.0f;
  return x;
}

std::vector<float> MakeM(std::mt19937& rng) {
  std::vector<float> m = RandomFloats(kR * kC, rng());
  for (float& v : m) {
    if (rng() % 2 == 0) v = 0.0f;
  }
  return m;
}

std::vector<int64_t> DescDims(aclmdlDataset* d, size_t i) {
  aclTensorDesc* t = aclmdlGetDatasetTensorDesc(d, i);
  std::vector<int64_t> dims;
  if (t == nullptr) return {-2};
  for (size_t k = 0; k < aclGetTensorDescNumDims(t); ++k) {
    int64_t v = 0;
    aclGetTensorDescDimV2(t, k, &v);
    dims.push_back(v);
  }
  return dims;
}

class DataDependentModelTest : public ModelTest {
 protected:
  void SetUp() override {
    ModelTest::SetUp();
    dir_ = fs::path(::testing::TempDir()) / ("dd_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    onnx_ = (dir_ / "m.onnx").string();
    BuildOnnx(onnx_);
  }
  void TearDown() override {
    if (model_id_ != 0) aclmdlUnload(model_id_);
    ReleaseDatasets();
    ModelTest::TearDown();
    fs::remove_all(dir_);
  }
  // The build's atc on `onnx`; returns the .om's path, or "" with the log in `log` when it failed.
  std::string Atc(const std::string& onnx, std::string* log = nullptr, const std::string& options = "") {
    const std::string out = (dir_ / "model").string();
    const std::string cmd = std::string(ATC_BINARY) + " --model=" + onnx + " --framework=5 --output=" + out +
                            " --soc_version=Ascend910B1 " + options + " > " + out + ".log 2>&1";
    const int rc = std::system(cmd.c_str());
    if (log != nullptr) {
      std::ifstream f(out + ".log");
      log->assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    return rc == 0 ? out + ".om" : std::string();
  }
  uint32_t Load(const std::string& path) {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS) << Message();
    return id;
  }

  struct Io {
    void *x, *m, *g, *s, *coords, *row;
    aclmdlDataset *in, *out;
  };
  Io Prepare(const std::vector<float>& x, const std::vector<float>& m) {
    Io io;
    io.x = Upload(x);
    io.m = Upload(m);
    io.g = Device(kN * 4);
    io.s = Device(4);
    io.coords = Device(kR * kC * 2 * 4);
    io.row = Device(kN * 4);
    io.in = Dataset({io.x, io.m}, {kN * 4, kR * kC * 4});
    io.out = Dataset({io.g, io.s, io.coords, io.row}, {kN * 4, 4, kR * kC * 2 * 4, kN * 4});
    return io;
  }
  // Checks one execution's outputs and their descriptors against the reference.
  void Check(const Io& io, const Expected& e, const std::string& what) {
    const auto n = static_cast<int64_t>(e.g.size()), n2 = static_cast<int64_t>(e.coords.size() / 2);
    EXPECT_EQ(DescDims(io.out, 0), std::vector<int64_t>({n})) << what;
    EXPECT_EQ(DescDims(io.out, 1), std::vector<int64_t>()) << what;
    EXPECT_EQ(DescDims(io.out, 2), std::vector<int64_t>({n2, 2})) << what;
    EXPECT_EQ(DescDims(io.out, 3), std::vector<int64_t>({1, n})) << what;
    if (!e.g.empty()) ExpectNear(Download(io.row, e.g.size()), e.g, (what + ": row").c_str());
    ExpectNear(Download(io.s, 1), {e.s}, (what + ": s").c_str());
    if (!e.g.empty()) ExpectNear(Download(io.g, e.g.size()), e.g, (what + ": g").c_str());  // (none: nothing to read)
    if (!e.coords.empty()) ExpectNear(Download(io.coords, e.coords.size()), e.coords, (what + ": coords").c_str());
  }

  fs::path dir_;
  std::string onnx_;
  uint32_t model_id_ = 0;
};

TEST_F(DataDependentModelTest, RandomCountsMatchTheReference) {
  const std::string om = Atc(onnx_);
  ASSERT_FALSE(om.empty());
  model_id_ = Load(om);
  std::mt19937 rng(11);
  // Every count once at the ends (none, one, all) and random ones between, in random order.
  std::vector<int> counts = {0, 1, static_cast<int>(kN), 17, 40, 3, 63, 17, 9, 0, 52, 33};
  for (size_t k = 0; k < counts.size(); ++k) {
    const auto x = MakeX(counts[k], rng);
    const auto m = MakeM(rng);
    const Io io = Prepare(x, m);
    ASSERT_EQ(aclmdlExecute(model_id_, io.in, io.out), ACL_SUCCESS) << Message();
    Check(io, Reference(x, m), "execution " + std::to_string(k) + " with " + std::to_string(counts[k]) + " positives");
  }
}

// Asynchronous executions on two streams, each with its own data: each output dataset gets its own execution's
// dims once the stream ran it (the model orders them; the slots of one are read before the next overwrites them).
TEST_F(DataDependentModelTest, AsyncExecutionsDeliverTheirOwnShapes) {
  const std::string om = Atc(onnx_);
  ASSERT_FALSE(om.empty());
  model_id_ = Load(om);
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  std::mt19937 rng(5);
  std::vector<Io> ios;
  std::vector<Expected> want;
  for (int k = 0; k < 6; ++k) {
    const auto x = MakeX(static_cast<int>(rng() % (kN + 1)), rng);
    const auto m = MakeM(rng);
    ios.push_back(Prepare(x, m));
    want.push_back(Reference(x, m));
    ASSERT_EQ(aclmdlExecuteAsync(model_id_, ios.back().in, ios.back().out, k % 2 == 0 ? stream_ : other), ACL_SUCCESS)
        << Message();
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  for (size_t k = 0; k < ios.size(); ++k) Check(ios[k], want[k], "async execution " + std::to_string(k));
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

// A dynamic-shape model (x's length varies) with data-dependent shapes inside: each compiled length plans its
// own bounds and slots, and the outputs' dims come back per execution.
TEST_F(DataDependentModelTest, DynamicShapeModelsKeepDataDependentShapesOnTheDevice) {
  const std::string om = Atc(onnx_, nullptr, "--input_shape=\"x:1~64;m:4,5\"");
  ASSERT_FALSE(om.empty());
  model_id_ = Load(om);
  std::mt19937 rng(23);
  for (int64_t len : {40, 13, 64, 40}) {
    auto x = MakeX(static_cast<int>(rng() % (len + 1)), rng);
    x.resize(static_cast<size_t>(len));
    const auto m = MakeM(rng);
    const Io io = Prepare(x, m);
    const int64_t xd[1] = {len};
    aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 1, xd, ACL_FORMAT_ND);
    ASSERT_EQ(aclmdlSetDatasetTensorDesc(io.in, d, 0), ACL_SUCCESS);
    aclDestroyTensorDesc(d);
    ASSERT_EQ(aclmdlExecute(model_id_, io.in, io.out), ACL_SUCCESS) << Message();
    Check(io, Reference(x, m), "length " + std::to_string(len));
  }
}

// The description shows -1 where an output's dims follow the data, and the bytes of the bounds the buffers are
// planned for.
TEST_F(DataDependentModelTest, DescriptionShowsTheBounds) {
  const std::string om = Atc(onnx_);
  ASSERT_FALSE(om.empty());
  model_id_ = Load(om);
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, model_id_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetNumOutputs(desc), 4u);
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 0), static_cast<size_t>(kN * 4));
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(desc, 2), static_cast<size_t>(kR * kC * 2 * 4));
  auto dims_of = [&](size_t i) {
    aclmdlIODims dims{};
    EXPECT_EQ(aclmdlGetOutputDims(desc, i, &dims), ACL_SUCCESS);
    return std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount);
  };
  EXPECT_EQ(dims_of(0), std::vector<int64_t>({-1}));
  EXPECT_EQ(dims_of(1), std::vector<int64_t>());
  EXPECT_EQ(dims_of(2), std::vector<int64_t>({-1, 2}));
  EXPECT_EQ(dims_of(3), std::vector<int64_t>({1, -1}));
  aclmdlDestroyDesc(desc);
}

// Operators that would bake the bound into the graph, and shapes made values, are refused by name.
TEST_F(DataDependentModelTest, AtcRefusesWhatCannotTileOnTheDevice) {
  {
    OnnxBuilder g(13);
    g.Input("x", {kN});
    g.Node("NonZero", {"x"}, {"nz"});
    g.Node("Shape", {"nz"}, {"shape"});
    OnnxBuilder::AttrInt(g.Node("Cast", {"shape"}, {"y"}), "to", onnx::TensorProto::FLOAT);
    g.Output("y");
    const std::string path = (dir_ / "shape.onnx").string();
    ASSERT_TRUE(g.Save(path));
    std::string log;
    EXPECT_TRUE(Atc(path, &log).empty());
    EXPECT_NE(log.find("depends on the data"), std::string::npos) << log;
  }
  {
    OnnxBuilder g(13);
    g.Input("x", {4, 8});
    g.Weight("W", {2, 3});
    g.Node("NonZero", {"x"}, {"nz"});
    g.Node("Transpose", {"nz"}, {"t"});
    OnnxBuilder::AttrInt(g.Node("Cast", {"t"}, {"tf"}), "to", onnx::TensorProto::FLOAT);
    g.Node("MatMul", {"tf", "W"}, {"y"});
    g.Output("y");
    const std::string path = (dir_ / "matmul.onnx").string();
    ASSERT_TRUE(g.Save(path));
    std::string log;
    EXPECT_TRUE(Atc(path, &log).empty());
    EXPECT_NE(log.find("MatMul"), std::string::npos) << log;
    EXPECT_NE(log.find("whose shape depends on the data"), std::string::npos) << log;
  }
}

// Forged shape slots (outside the arena, misaligned, or missing on a slotted node's output) are refused at load.
TEST_F(DataDependentModelTest, ForgedSlotsAreRefused) {
  const std::string om = Atc(onnx_);
  ASSERT_FALSE(om.empty());
  std::string bytes;
  ASSERT_TRUE(om::ReadFileBytes(om, &bytes).ok());
  auto file = om::ReadModel(bytes.data(), bytes.size(), "test");
  ASSERT_TRUE(file.ok()) << file.status().message();
  const std::vector<uint8_t> weights(file->weights, file->weights + file->weights_size);
  size_t slotted = 0;
  for (const auto& t : file->def.tensors) slotted += t.data_dependent() ? 1 : 0;
  ASSERT_GE(slotted, 6u);
  auto forge = [&](auto&& mutate, const char* what) {
    om::ModelDef def = file->def;
    mutate(def);
    auto image = om::SerializeModel(def, weights);
    ASSERT_TRUE(image.ok()) << image.status().message();
    uint32_t id = 0;
    const aclError rc = aclmdlLoadFromMem(image->data(), image->size(), &id);
    EXPECT_NE(rc, ACL_SUCCESS) << what;
    EXPECT_NE(Message().find("shape slot"), std::string::npos) << what << ": " << Message();
    if (rc == ACL_SUCCESS) aclmdlUnload(id);
  };
  auto first_slotted = [](om::ModelDef& d) -> om::TensorDef& {
    for (auto& t : d.tensors) {
      if (t.data_dependent()) return t;
    }
    return d.tensors[0];
  };
  forge([&](om::ModelDef& d) { first_slotted(d).shape_slot = static_cast<int64_t>(d.arena_size); }, "past the arena");
  forge([&](om::ModelDef& d) { first_slotted(d).shape_slot += 4; }, "misaligned");
  forge([&](om::ModelDef& d) {
    for (auto& t : d.tensors) {
      if (t.region == om::Region::kOutput && t.data_dependent()) {
        t.shape_slot = -1;
        break;
      }
    }
  }, "a slotted node's output without a slot");
  forge([&](om::ModelDef& d) { d.tensors[static_cast<size_t>(d.inputs[0])].shape_slot = 0; }, "a model input");
  forge([&](om::ModelDef& d) { d.tensors[static_cast<size_t>(d.inputs[0])].varying_dims = 1; }, "varying dims, no slot");
  forge([&](om::ModelDef& d) { first_slotted(d).varying_dims = uint64_t{1} << 20; }, "a varying dim past the rank");
}

}  // namespace
}  // namespace npurt::test::data_dependent
