// Dynamic-shape models (atc --input_shape with ranges or -1 and no gear option; docs/models.md "Dynamic
// shapes"): a model with shape arithmetic (Shape -> Gather -> Concat -> Reshape), converted by the build's
// atc, run through the aclmdl API at random shapes against a host reference and against static models of
// the same shapes, its descriptions, the cache under a small capacity, re-tiled kernels and their
// specialisation, user memory, and every refusal.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "../atc/onnx_builder.h"
#include "acl/error_codes/ge_error_codes.h"
#include "model_fixture.h"
#include "models/om/om_format.h"
#include "models/om/om_reader.h"
#include "models/om/om_writer.h"

namespace npurt::test {
namespace {

namespace fs = std::filesystem;
using atc::testing::OnnxBuilder;

constexpr int64_t kC = 16, kK = 8;

// x [N, T, 16] -> Reshape to [N*T, 16] (its target computed from Shape(x)) -> MatMul W [16, 8] + b -> Relu
// -> Reshape back to [N, T, 8] (again from Shape(x)). The reference is the same arithmetic on the host.
struct ShapeModel {
  std::vector<float> w, b;
  std::vector<float> Reference(const std::vector<float>& x, int64_t rows) const {
    std::vector<float> y(static_cast<size_t>(rows * kK));
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < kK; ++k) {
        float acc = b[static_cast<size_t>(k)];
        for (int64_t c = 0; c < kC; ++c) acc += x[static_cast<size_t>(r * kC + c)] * w[static_cast<size_t>(c * kK + k)];
        y[static_cast<size_t>(r * kK + k)] = acc > 0 ? acc : 0;
      }
    }
    return y;
  }
};

ShapeModel BuildOnnx(const std::string& path) {
  OnnxBuilder g(13);
  g.Input("x", {2, 3, kC});
  auto* shape = g.model().mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->mutable_dim(0)->set_dim_param("N");
  shape->mutable_dim(1)->set_dim_param("T");
  g.Weight("W", {kC, kK});
  g.Weight("B", {kK});
  g.Ints("zero", {0}, true);
  g.Ints("one", {1}, true);
  g.Ints("axes0", {0});
  g.Ints("minus1", {-1});
  g.Ints("k", {kK});
  g.Node("Shape", {"x"}, {"s"});
  OnnxBuilder::AttrInt(g.Node("Gather", {"s", "zero"}, {"n"}), "axis", 0);
  OnnxBuilder::AttrInt(g.Node("Gather", {"s", "one"}, {"t"}), "axis", 0);
  g.Node("Unsqueeze", {"n", "axes0"}, {"n1"});
  g.Node("Unsqueeze", {"t", "axes0"}, {"t1"});
  g.Ints("c", {kC});
  OnnxBuilder::AttrInt(g.Node("Concat", {"minus1", "c"}, {"flat_shape"}), "axis", 0);
  g.Node("Reshape", {"x", "flat_shape"}, {"flat"});
  g.Node("MatMul", {"flat", "W"}, {"mm"});
  g.Node("Add", {"mm", "B"}, {"biased"});
  g.Node("Relu", {"biased"}, {"act"});
  OnnxBuilder::AttrInt(g.Node("Concat", {"n1", "t1", "k"}, {"out_shape"}), "axis", 0);
  g.Node("Reshape", {"act", "out_shape"}, {"y"});
  g.Output("y");
  EXPECT_TRUE(g.Save(path));
  ShapeModel m;
  for (const auto& init : g.model().graph().initializer()) {
    if (init.name() == "W") m.w.assign(init.float_data().begin(), init.float_data().end());
    if (init.name() == "B") m.b.assign(init.float_data().begin(), init.float_data().end());
  }
  return m;
}

class ShapeModelTest : public ModelTest {
 protected:
  void SetUp() override {
    ModelTest::SetUp();
    dir_ = fs::path(::testing::TempDir()) / ("shape_" + std::to_string(getpid()) + "_" +
                                             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    onnx_ = (dir_ / "m.onnx").string();
    ref_ = BuildOnnx(onnx_);
  }
  void TearDown() override {
    if (model_id_ != 0) aclmdlUnload(model_id_);
    ReleaseDatasets();
    ModelTest::TearDown();
    fs::remove_all(dir_);
  }
  // The build's atc on the model; returns the .om's path.
  std::string Atc(const std::string& name, const std::string& options) {
    const std::string out = (dir_ / name).string();
    const std::string cmd = std::string(ATC_BINARY) + " --model=" + onnx_ + " --framework=5 --output=" + out +
                            " --soc_version=Ascend910B1 " + options + " > " + out + ".log 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return out + ".om";
  }
  uint32_t Load(const std::string& path) {
    uint32_t id = 0;
    EXPECT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS) << Message();
    return id;
  }
  // One execution of `id` at [n, t, 16] with the shape given through the dataset; returns the output and
  // checks the output dataset's descriptor.
  std::vector<float> Run(uint32_t id, const std::vector<float>& x, int64_t n, int64_t t, aclrtStream stream = nullptr,
                         bool describe = true) {
    void* in = Upload(x);
    const size_t out_bytes = static_cast<size_t>(n * t * kK) * 4;
    void* out = Device(out_bytes);
    aclmdlDataset* ind = Dataset({in}, {x.size() * 4});
    aclmdlDataset* outd = Dataset({out}, {out_bytes});
    if (describe) {
      const int64_t dims[3] = {n, t, kC};
      aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 3, dims, ACL_FORMAT_ND);
      EXPECT_EQ(aclmdlSetDatasetTensorDesc(ind, d, 0), ACL_SUCCESS);
      aclDestroyTensorDesc(d);
    }
    if (stream == nullptr) {
      EXPECT_EQ(aclmdlExecute(id, ind, outd), ACL_SUCCESS) << Message();
    } else {
      EXPECT_EQ(aclmdlExecuteAsync(id, ind, outd, stream), ACL_SUCCESS) << Message();
      EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    if (describe) {
      aclTensorDesc* od = aclmdlGetDatasetTensorDesc(outd, 0);
      EXPECT_NE(od, nullptr);
      if (od != nullptr) {
        EXPECT_EQ(aclGetTensorDescNumDims(od), 3u);
        int64_t d0 = 0, d1 = 0, d2 = 0;
        aclGetTensorDescDimV2(od, 0, &d0);
        aclGetTensorDescDimV2(od, 1, &d1);
        aclGetTensorDescDimV2(od, 2, &d2);
        EXPECT_EQ(std::vector<int64_t>({d0, d1, d2}), std::vector<int64_t>({n, t, kK}));
        EXPECT_EQ(aclGetTensorDescType(od), ACL_FLOAT);
      }
    }
    return Download(out, static_cast<size_t>(n * t * kK));
  }

  fs::path dir_;
  std::string onnx_;
  ShapeModel ref_;
  uint32_t model_id_ = 0;
};

TEST_F(ShapeModelTest, DescriptionShowsRangesAndSizes) {
  const std::string om = Atc("dyn", "--input_shape=\"x:1~4,-1,16\"");
  size_t work = 1, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(om.c_str(), &work, &weight), ACL_SUCCESS);
  EXPECT_EQ(work, 0u) << "a dynamic-shape model's work memory depends on its shapes";
  EXPECT_GE(weight, static_cast<size_t>((kC * kK + kK) * 4));
  model_id_ = Load(om);
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, model_id_), ACL_SUCCESS);
  aclmdlIODims dims{};
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount), std::vector<int64_t>({-1, -1, kC}));
  ASSERT_EQ(aclmdlGetOutputDims(desc, 0, &dims), ACL_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(dims.dims, dims.dims + dims.dimCount), std::vector<int64_t>({-1, -1, kK}));
  aclmdlIODimsRange range{};
  ASSERT_EQ(aclmdlGetInputDimsRange(desc, 0, &range), ACL_SUCCESS);
  ASSERT_EQ(range.rangeCount, 3u);
  EXPECT_EQ(range.range[0][0], 1);
  EXPECT_EQ(range.range[0][1], 4);
  EXPECT_EQ(range.range[1][0], 1);
  EXPECT_EQ(range.range[1][1], -1);
  EXPECT_EQ(range.range[2][0], kC);
  EXPECT_EQ(range.range[2][1], kC);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 0u) << "T is unbounded";
  EXPECT_EQ(aclmdlGetCurOutputDims(desc, 0, &dims), ACL_ERROR_API_NOT_SUPPORT);
  EXPECT_NE(Message().find("aclmdlGetDatasetTensorDesc"), std::string::npos) << Message();
  aclmdlDestroyDesc(desc);

  // Bounded ranges: the sizes of the largest shapes.
  const std::string bounded = Atc("bounded", "--input_shape_range=\"x:[1~4,2~10,16]\"");
  aclmdlDesc* d2 = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDescFromFile(d2, bounded.c_str()), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(d2, 0), static_cast<size_t>(4 * 10 * kC * 4));
  EXPECT_EQ(aclmdlGetOutputSizeByIndex(d2, 0), static_cast<size_t>(4 * 10 * kK * 4));
  aclmdlDestroyDesc(d2);
}

TEST_F(ShapeModelTest, RandomShapesMatchTheReferenceAndStaticModels) {
  model_id_ = Load(Atc("dyn", "--input_shape=\"x:1~4,-1,16\""));
  // A static conversion of one shape runs the same graph: the same bytes out.
  const uint32_t fixed = Load(Atc("static_2x5", "--input_shape=\"x:2,5,16\""));
  std::mt19937 rng(5);
  const int64_t ts[] = {1, 3, 5, 17, 64};
  for (int step = 0; step < 16; ++step) {
    const int64_t n = 1 + static_cast<int64_t>(rng() % 4), t = ts[rng() % 5];
    const std::vector<float> x = RandomFloats(static_cast<size_t>(n * t * kC), 100 + step);
    ExpectNear(Run(model_id_, x, n, t), ref_.Reference(x, n * t), "dynamic");
    ReleaseDatasets();
  }
  const std::vector<float> x = RandomFloats(2 * 5 * kC, 7);
  const std::vector<float> dynamic = Run(model_id_, x, 2, 5);
  const std::vector<float> static_out = Run(fixed, x, 2, 5, nullptr, false);
  EXPECT_EQ(dynamic, static_out);
  EXPECT_EQ(aclmdlUnload(fixed), ACL_SUCCESS);
}

TEST_F(ShapeModelTest, SmallCacheEvictsAndStaysCorrect) {
  setenv("NPURT_MODEL_SHAPE_CACHE", "2", 1);
  model_id_ = Load(Atc("dyn", "--input_shape=\"x:-1,-1,16\""));
  unsetenv("NPURT_MODEL_SHAPE_CACHE");
  // Three shapes in turn through a cache of two: every step compiles again, and the arena grows and is reused.
  const int64_t shapes[][2] = {{1, 4}, {3, 9}, {2, 30}, {1, 4}, {3, 9}, {2, 30}, {4, 2}};
  for (size_t i = 0; i < std::size(shapes); ++i) {
    const auto [n, t] = std::pair(shapes[i][0], shapes[i][1]);
    const std::vector<float> x = RandomFloats(static_cast<size_t>(n * t * kC), 200 + static_cast<uint32_t>(i));
    ExpectNear(Run(model_id_, x, n, t), ref_.Reference(x, n * t), "after evictions");
    ReleaseDatasets();
  }
}

TEST_F(ShapeModelTest, ExecutionsOnTwoStreamsWithDifferentShapes) {
  model_id_ = Load(Atc("dyn", "--input_shape=\"x:1~4,-1,16\""));
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  for (int i = 0; i < 8; ++i) {
    const int64_t n = 1 + i % 3, t = 3 + 5 * (i % 4);
    const std::vector<float> x = RandomFloats(static_cast<size_t>(n * t * kC), 300 + i);
    ExpectNear(Run(model_id_, x, n, t, i % 2 == 0 ? stream_ : other), ref_.Reference(x, n * t), "two streams");
    ReleaseDatasets();
  }
  ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

// The plog lines this process wrote so far that contain `what` (ASCEND_PROCESS_LOG_PATH, synchronous saving:
// the ctest entry models.shape_retile sets both).
size_t PlogLines(const std::string& root, const std::string& what) {
  size_t n = 0;
  std::error_code ec;
  for (const auto& f : fs::recursive_directory_iterator(root, ec)) {
    if (!f.is_regular_file() || f.path().filename().string().rfind("plog-" + std::to_string(getpid()) + "_", 0) != 0) {
      continue;
    }
    std::ifstream in(f.path());
    for (std::string line; std::getline(in, line);) n += line.find(what) != std::string::npos ? 1 : 0;
  }
  return n;
}

// A shape met after another re-tiles the first shape's kernels (its weights' MatMul at a new M); met again,
// it gets kernels compiled for it, built off the executing thread and adopted by a later execution. Every
// output along the way matches the reference. Run under the ctest entry models.shape_retile (INFO lines to
// a plog of its own), the log shows both steps; elsewhere only the results are checked.
TEST_F(ShapeModelTest, RecurringShapesEarnKernelsOfTheirOwn) {
  const char* log_root = std::getenv("NPURT_EXPECT_RETILE_LOG");
  model_id_ = Load(Atc("dyn", "--input_shape=\"x:1~4,-1,16\""));
  auto check = [&](int64_t n, int64_t t, uint32_t seed) {
    const std::vector<float> x = RandomFloats(static_cast<size_t>(n * t * kC), seed);
    ExpectNear(Run(model_id_, x, n, t), ref_.Reference(x, n * t), "recurring shapes");
    ReleaseDatasets();
  };
  check(1, 4, 500);
  check(3, 9, 501);  // M = 27: re-tiled from M = 4
  if (log_root != nullptr) {
    EXPECT_GE(PlogLines(log_root, "1 of them re-tiled from another shape's kernel"), 1u);
  }
  // Met again and again until its own kernels are in (bounded: the specialising thread builds two operators).
  bool adopted = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (uint32_t i = 0; std::chrono::steady_clock::now() < deadline; ++i) {
    check(3, 9, 502 + i);
    if (log_root == nullptr && i >= 8) break;
    if (log_root != nullptr && PlogLines(log_root, "met again: 1 re-tiled operators compiled for them") > 0) {
      adopted = true;
      check(3, 9, 900);  // the re-recorded shape, with its own kernel
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (log_root != nullptr) {
    EXPECT_TRUE(adopted) << "the recurring shape's own kernels were never adopted";
  }
  check(1, 4, 901);
  // Unloading while nothing is queued, and (another model) while its specialising thread may be building.
  ASSERT_EQ(aclmdlUnload(model_id_), ACL_SUCCESS);
  model_id_ = Load(Atc("dyn2", "--input_shape=\"x:1~4,-1,16\""));
  check(2, 2, 902);
  for (int i = 0; i < 3; ++i) check(4, 11, 903 + static_cast<uint32_t>(i));
  ASSERT_EQ(aclmdlUnload(model_id_), ACL_SUCCESS);
  model_id_ = 0;
}

TEST_F(ShapeModelTest, UserMemoryFromQuerySize) {
  const std::string om = Atc("dyn", "--input_shape=\"x:1~4,1~32,16\"");
  size_t work = 0, weight = 0;
  ASSERT_EQ(aclmdlQuerySize(om.c_str(), &work, &weight), ACL_SUCCESS);
  void* w = Device(weight);
  void* small_work = Device(64);  // too small for most shapes: the runtime extends the arena itself
  ASSERT_EQ(aclmdlLoadFromFileWithMem(om.c_str(), &model_id_, small_work, 64, w, weight), ACL_SUCCESS) << Message();
  for (int64_t t : {1, 32, 7}) {
    const std::vector<float> x = RandomFloats(static_cast<size_t>(3 * t * kC), 400 + static_cast<uint32_t>(t));
    ExpectNear(Run(model_id_, x, 3, t), ref_.Reference(x, 3 * t), "user memory");
    ReleaseDatasets();
  }
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFileWithMem(om.c_str(), &id, nullptr, 0, w, weight > 64 ? 64 : 0),
            static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID)) << "weight memory smaller than aclmdlQuerySize says";
}

TEST_F(ShapeModelTest, BadShapesAndRequestsAreRefused) {
  model_id_ = Load(Atc("dyn", "--input_shape=\"x:1~4,-1,16\""));
  const std::vector<float> x = RandomFloats(2 * 3 * kC, 9);
  void* in = Upload(x);
  void* out = Device(2 * 3 * kK * 4);
  auto run = [&](std::vector<int64_t> dims, size_t out_bytes = 2 * 3 * kK * 4) {
    aclmdlDataset* ind = Dataset({in}, {x.size() * 4});
    aclmdlDataset* outd = Dataset({out}, {out_bytes});
    if (!dims.empty()) {
      aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, static_cast<int>(dims.size()), dims.data(), ACL_FORMAT_ND);
      EXPECT_EQ(aclmdlSetDatasetTensorDesc(ind, d, 0), ACL_SUCCESS);
      aclDestroyTensorDesc(d);
    }
    return aclmdlExecute(model_id_, ind, outd);
  };
  EXPECT_EQ(run({}), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID));
  EXPECT_NE(Message().find("aclmdlSetDatasetTensorDesc"), std::string::npos) << Message();
  EXPECT_EQ(run({5, 3, kC}), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID));
  EXPECT_NE(Message().find("outside its range [1, 4]"), std::string::npos) << Message();
  EXPECT_EQ(run({2, 3, kC + 1}), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID));
  EXPECT_EQ(run({2, 0, kC}), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID));
  EXPECT_EQ(run({2, 3}), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID));
  EXPECT_NE(Message().find("rank 3"), std::string::npos) << Message();
  EXPECT_EQ(run({2, 3, kC}, 16), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID)) << "output too small";
  EXPECT_NE(Message().find("needs"), std::string::npos) << Message();
  EXPECT_EQ(run({2, 4, kC}), static_cast<aclError>(ACL_ERROR_GE_PARAM_INVALID)) << "input smaller than the shape";
  // Gears are another kind of model.
  aclmdlDataset* ind = Dataset({in}, {x.size() * 4});
  EXPECT_EQ(aclmdlSetDynamicBatchSize(model_id_, ind, 0, 2), static_cast<aclError>(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID));
  EXPECT_NE(Message().find("dynamic-shape model"), std::string::npos) << Message();
  // And a good execution after all of them.
  EXPECT_EQ(run({2, 3, kC}), ACL_SUCCESS) << Message();
  ExpectNear(Download(out, 2 * 3 * kK), ref_.Reference(x, 6), "after refusals");
}

// A source graph whose initializer names an external file (atc always inlines): refused at load, and the
// file is never read.
TEST_F(ShapeModelTest, SourceGraphWithExternalDataIsRefused) {
  const std::string om_path = Atc("dyn", "--input_shape=\"x:1~4,-1,16\"");
  std::string bytes;
  ASSERT_TRUE(om::ReadFileBytes(om_path, &bytes).ok());
  auto file = om::ReadModel(bytes.data(), bytes.size(), "test");
  ASSERT_TRUE(file.ok()) << file.status().message();
  onnx::ModelProto source;
  ASSERT_TRUE(source.ParseFromArray(file->weights, static_cast<int>(file->weights_size)));
  bool changed = false;
  for (auto& init : *source.mutable_graph()->mutable_initializer()) {
    if (init.name() != "W") continue;
    init.clear_float_data();
    init.clear_raw_data();
    init.set_data_location(onnx::TensorProto::EXTERNAL);
    auto* e = init.add_external_data();
    e->set_key("location");
    e->set_value("/etc/hostname");
    changed = true;
  }
  ASSERT_TRUE(changed);
  std::string forged_source;
  ASSERT_TRUE(source.SerializeToString(&forged_source));
  const std::vector<uint8_t> weights(forged_source.begin(), forged_source.end());
  om::ModelDef def = file->def;
  def.weight_size = weights.size();
  auto image = om::SerializeModel(def, weights);
  ASSERT_TRUE(image.ok()) << image.status().message();
  uint32_t id = 0;
  const aclError rc = aclmdlLoadFromMem(image->data(), image->size(), &id);
  EXPECT_NE(rc, ACL_SUCCESS);
  EXPECT_NE(Message().find("external data"), std::string::npos) << Message();
  if (rc == ACL_SUCCESS) aclmdlUnload(id);
}

TEST_F(ShapeModelTest, MutatedSourceGraphIsRefused) {
  const std::string om = Atc("dyn", "--input_shape=\"x:1~4,-1,16\"");
  std::string bytes;
  {
    FILE* f = std::fopen(om.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buf[65536];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) bytes.append(buf, n);
    std::fclose(f);
  }
  // One flipped byte in the header, the model part or the source graph (the weight part): refused by a
  // checksum, never compiled. (The alignment padding between the parts is not read.)
  om::FileHeader h{};
  ASSERT_GE(bytes.size(), sizeof(h));
  std::memcpy(&h, bytes.data(), sizeof(h));
  ASSERT_GT(h.weights_size, 0u);
  std::mt19937 rng(3);
  for (int i = 0; i < 48; ++i) {
    std::string m = bytes;
    const uint64_t part = rng() % 3;
    const uint64_t at = part == 0   ? rng() % sizeof(h)
                        : part == 1 ? h.model_offset + rng() % h.model_size
                                    : h.weights_offset + rng() % h.weights_size;
    m[at] ^= static_cast<char>(1 + rng() % 255);
    uint32_t id = 0;
    const aclError rc = aclmdlLoadFromMem(m.data(), m.size(), &id);
    EXPECT_NE(rc, ACL_SUCCESS) << "byte " << at;
    if (rc == ACL_SUCCESS) aclmdlUnload(id);
  }
}

}  // namespace
}  // namespace npurt::test
