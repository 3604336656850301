// Models whose operators run on several streams (the .om's `stream` and `waits` per node; docs/models.md,
// "Operators on several streams"): recorded once on the model's stream and its branch streams, joined by events,
// and replayed with the branches running concurrently (the synchronous sim: in record order). Checked against a
// host reference on random data, back to back and from two streams, and a node that waits for the other branch;
// atc's stream assignment (--enable_single_stream=false) on an Inception-like graph: the same results as one
// stream, and a memory plan in which no two tensors that share bytes are touched by unordered nodes.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "../atc/onnx_builder.h"
#include "model_fixture.h"
#include "models/om/om_reader.h"
#include "models/om/om_writer.h"

namespace npurt::test::model_streams {
namespace {

constexpr int64_t kN = 4096;

om::TensorDef T(const char* name, om::Region region, uint64_t offset_or_index) {
  om::TensorDef t;
  t.name = name;
  t.spec = TensorSpec{ACL_FLOAT, ACL_FORMAT_ND, {kN}};
  t.bytes = t.spec.bytes();
  t.region = region;
  if (region == om::Region::kArena) t.offset = offset_or_index;
  else t.io_index = static_cast<uint32_t>(offset_or_index);
  return t;
}

om::NodeDef N(const char* name, const char* op, std::vector<int32_t> in, std::vector<int32_t> out, uint32_t stream,
              std::vector<uint32_t> waits = {}) {
  om::NodeDef n;
  n.name = name;
  n.source_type = op;
  n.op_type = op;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.stream = stream;
  n.waits = std::move(waits);
  return n;
}

// x -> stream 0: a = Relu(x), c = a * a          stream 1: b = Sigmoid(x), d = b + x
//   -> stream 0 (waits for d): y = c + d;   stream 2 (waits for a): s = a - x, z = Abs(s).
std::vector<uint8_t> ThreeStreamModel() {
  using R = om::Region;
  om::ModelDef d;
  d.name = "three_streams";
  d.soc_version = "Ascend910B1";
  d.stream_count = 3;
  const uint64_t b = kN * 4;
  d.tensors = {T("x", R::kInput, 0),  T("a", R::kArena, 0),     T("c", R::kArena, b),     T("b", R::kArena, 2 * b),
               T("d", R::kArena, 3 * b), T("y", R::kOutput, 0), T("s", R::kArena, 4 * b), T("z", R::kOutput, 1)};
  d.inputs = {0};
  d.outputs = {5, 7};
  d.nodes = {N("relu", "Relu", {0}, {1}, 0),           N("sigmoid", "Sigmoid", {0}, {3}, 1),
             N("square", "Mul", {1, 1}, {2}, 0),       N("shift", "Add", {3, 0}, {4}, 1),
             N("join", "Add", {2, 4}, {5}, 0, {3}),    N("sub", "Sub", {1, 0}, {6}, 2, {0}),
             N("abs", "Abs", {6}, {7}, 2)};
  d.arena_size = 5 * b;
  auto file = om::SerializeModel(d, {});
  EXPECT_TRUE(file.ok()) << file.status().message();
  return file.ok() ? std::move(file).value() : std::vector<uint8_t>();
}

void Reference(const std::vector<float>& x, std::vector<float>* y, std::vector<float>* z) {
  y->resize(x.size());
  z->resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const float a = std::max(x[i], 0.0f);
    const float b = 1.0f / (1.0f + std::exp(-x[i]));
    (*y)[i] = a * a + (b + x[i]);
    (*z)[i] = std::fabs(a - x[i]);
  }
}

using ModelStreamsTest = ModelTest;

TEST_F(ModelStreamsTest, BranchesOnThreeStreamsMatchTheReference) {
  const auto file = ThreeStreamModel();
  ASSERT_FALSE(file.empty());
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromMem(file.data(), file.size(), &id), ACL_SUCCESS) << Message();
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  // Six executions with their own data, queued back to back on two streams, then checked.
  struct Run {
    std::vector<float> x, y, z;
    void *dx, *dy, *dz;
  };
  std::vector<Run> runs(6);
  for (size_t k = 0; k < runs.size(); ++k) {
    Run& r = runs[k];
    r.x = RandomFloats(kN, static_cast<uint32_t>(40 + k));
    for (float& v : r.x) v *= 4.0f;
    r.dx = Upload(r.x);
    r.dy = Device(kN * 4);
    r.dz = Device(kN * 4);
    aclmdlDataset* in = Dataset({r.dx}, {kN * 4});
    aclmdlDataset* out = Dataset({r.dy, r.dz}, {kN * 4, kN * 4});
    if (k == 0) {
      ASSERT_EQ(aclmdlExecute(id, in, out), ACL_SUCCESS) << Message();
    } else {
      ASSERT_EQ(aclmdlExecuteAsync(id, in, out, k % 2 == 0 ? stream_ : other), ACL_SUCCESS) << Message();
    }
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  for (size_t k = 0; k < runs.size(); ++k) {
    std::vector<float> y, z;
    Reference(runs[k].x, &y, &z);
    ExpectNear(Download(runs[k].dy, kN), y, ("y of execution " + std::to_string(k)).c_str());
    ExpectNear(Download(runs[k].dz, kN), z, ("z of execution " + std::to_string(k)).c_str());
  }
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
}

// A node on a stream that does not exist, or waiting for a node that runs after it: refused at load.
TEST_F(ModelStreamsTest, ForgedStreamsAreRefused) {
  const auto file = ThreeStreamModel();
  ASSERT_FALSE(file.empty());
  auto forge = [&](auto&& mutate) {
    auto parsed = om::ReadModel(file.data(), file.size(), "test");
    EXPECT_TRUE(parsed.ok());
    if (!parsed.ok()) return;
    om::ModelDef d = parsed->def;
    mutate(d);
    auto image = om::SerializeModel(d, {});
    ASSERT_TRUE(image.ok());
    uint32_t id = 0;
    const aclError rc = aclmdlLoadFromMem(image->data(), image->size(), &id);
    EXPECT_NE(rc, ACL_SUCCESS);
    if (rc == ACL_SUCCESS) aclmdlUnload(id);
  };
  forge([](om::ModelDef& d) { d.nodes[1].stream = 3; });
  forge([](om::ModelDef& d) { d.nodes[4].waits = {5}; });
  forge([](om::ModelDef& d) { d.stream_count = 65; });
}

// An Inception-like block: x [1, 8, 12, 12] -> four branches (1x1 conv; 1x1 -> 3x3; 1x1 -> 5x5; 3x3 max pool ->
// 1x1), each with Relu, concatenated on channels, then a second such block on the result.
void BuildInception(const std::string& path) {
  atc::testing::OnnxBuilder g(13);
  g.Input("x", {1, 8, 12, 12});
  std::string in = "x";
  int64_t channels = 8;
  for (int block = 0; block < 2; ++block) {
    const std::string b = "b" + std::to_string(block) + "_";
    auto conv = [&](const std::string& name, const std::string& from, int64_t cin, int64_t cout, int64_t k) {
      g.Weight(name + "_w", {cout, cin, k, k});
      g.Weight(name + "_b", {cout});
      auto* n = g.Node("Conv", {from, name + "_w", name + "_b"}, {name + "_c"});
      atc::testing::OnnxBuilder::AttrInts(n, "pads", {k / 2, k / 2, k / 2, k / 2});
      g.Node("Relu", {name + "_c"}, {name});
      return name;
    };
    const std::string a = conv(b + "a", in, channels, 4, 1);
    const std::string c = conv(b + "c", conv(b + "c1", in, channels, 4, 1), 4, 6, 3);
    const std::string d = conv(b + "d", conv(b + "d1", in, channels, 2, 1), 2, 4, 5);
    auto* pool = g.Node("MaxPool", {in}, {b + "pool"});
    atc::testing::OnnxBuilder::AttrInts(pool, "kernel_shape", {3, 3});
    atc::testing::OnnxBuilder::AttrInts(pool, "pads", {1, 1, 1, 1});
    atc::testing::OnnxBuilder::AttrInts(pool, "strides", {1, 1});
    const std::string e = conv(b + "e", b + "pool", channels, 2, 1);
    atc::testing::OnnxBuilder::AttrInt(g.Node("Concat", {a, c, d, e}, {b + "out"}), "axis", 1);
    in = b + "out";
    channels = 16;
  }
  g.Output(in);
  ASSERT_TRUE(g.Save(path));
}

// Whether the memory plan of `d` is safe for its streams: two different arena tensors whose bytes overlap are
// never written by one node while another node that is not ordered with it touches the other (ordered: by the
// nodes' data, each stream's order and the waits). A Reshape whose output has its input's bytes (a view) writes
// nothing. Returns what is wrong, or "".
std::string StreamPlanProblem(const om::ModelDef& d) {
  const size_t n = d.nodes.size();
  std::vector<int> producer(d.tensors.size(), -1);
  for (size_t i = 0; i < n; ++i) {
    for (int32_t t : d.nodes[i].outputs) producer[static_cast<size_t>(t)] = static_cast<int>(i);
  }
  std::vector<std::set<size_t>> before(n);  // the nodes each node is ordered after
  std::vector<int> tail(d.stream_count, -1);
  for (size_t i = 0; i < n; ++i) {
    std::vector<size_t> direct;
    for (int32_t t : d.nodes[i].inputs) {
      if (t >= 0 && producer[static_cast<size_t>(t)] >= 0) direct.push_back(static_cast<size_t>(producer[static_cast<size_t>(t)]));
    }
    for (uint32_t w : d.nodes[i].waits) direct.push_back(w);
    if (tail[d.nodes[i].stream] >= 0) direct.push_back(static_cast<size_t>(tail[d.nodes[i].stream]));
    tail[d.nodes[i].stream] = static_cast<int>(i);
    for (size_t p : direct) {
      before[i].insert(p);
      before[i].insert(before[p].begin(), before[p].end());
    }
  }
  auto ordered = [&](size_t a, size_t b) { return a == b || before[a].count(b) != 0 || before[b].count(a) != 0; };
  std::vector<std::vector<size_t>> touch(d.tensors.size());
  std::vector<int> writer(d.tensors.size(), -1);
  for (size_t i = 0; i < n; ++i) {
    const om::NodeDef& node = d.nodes[i];
    for (int32_t t : node.inputs) {
      if (t >= 0) touch[static_cast<size_t>(t)].push_back(i);
    }
    for (int32_t t : node.outputs) {
      touch[static_cast<size_t>(t)].push_back(i);
      const bool view = node.op_type == "Reshape" && node.inputs.size() == 1 &&
                        d.tensors[static_cast<size_t>(node.inputs[0])].region == om::Region::kArena &&
                        d.tensors[static_cast<size_t>(node.inputs[0])].offset == d.tensors[static_cast<size_t>(t)].offset;
      if (!view) writer[static_cast<size_t>(t)] = static_cast<int>(i);
    }
  }
  for (size_t a = 0; a < d.tensors.size(); ++a) {
    const om::TensorDef& ta = d.tensors[a];
    if (ta.region != om::Region::kArena || writer[a] < 0) continue;
    for (size_t b = 0; b < d.tensors.size(); ++b) {
      const om::TensorDef& tb = d.tensors[b];
      if (a == b || tb.region != om::Region::kArena) continue;
      if (ta.offset >= tb.offset + tb.bytes || tb.offset >= ta.offset + ta.bytes) continue;
      for (size_t u : touch[b]) {
        if (!ordered(static_cast<size_t>(writer[a]), u)) {
          return "node " + d.nodes[static_cast<size_t>(writer[a])].name + " writes " + ta.name + " while node " +
                 d.nodes[u].name + " may touch " + tb.name + ", which shares its bytes";
        }
      }
    }
  }
  return "";
}

TEST_F(ModelStreamsTest, AtcPutsIndependentBranchesOnStreamsAndPlansThemSafely) {
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) / ("streams_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string onnx = (dir / "inception.onnx").string();
  BuildInception(onnx);
  auto convert = [&](const std::string& name, const std::string& option) {
    const std::string out = (dir / name).string();
    const std::string cmd = std::string(ATC_BINARY) + " --model=" + onnx + " --framework=5 --output=" + out +
                            " --soc_version=Ascend910B1 " + option + " > " + out + ".log 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return out + ".om";
  };
  const std::string multi = convert("multi", "--enable_single_stream=false");
  const std::string single = convert("single", "");
  std::string bytes;
  ASSERT_TRUE(om::ReadFileBytes(multi, &bytes).ok());
  auto file = om::ReadModel(bytes.data(), bytes.size(), "multi");
  ASSERT_TRUE(file.ok()) << file.status().message();
  EXPECT_GE(file->def.stream_count, 3u) << "four independent branches per block";
  EXPECT_EQ(StreamPlanProblem(file->def), "");
  {  // The check finds a plan that lets two branches share bytes.
    om::ModelDef overlapping = file->def;
    for (om::TensorDef& t : overlapping.tensors) {
      if (t.region == om::Region::kArena) t.offset = 0;
    }
    EXPECT_NE(StreamPlanProblem(overlapping), "");
  }
  ASSERT_TRUE(om::ReadFileBytes(single, &bytes).ok());
  auto one = om::ReadModel(bytes.data(), bytes.size(), "single");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->def.stream_count, 1u) << "one stream by default";
  // The same results either way, on random inputs.
  uint32_t ids[2] = {0, 0};
  ASSERT_EQ(aclmdlLoadFromFile(multi.c_str(), &ids[0]), ACL_SUCCESS) << Message();
  ASSERT_EQ(aclmdlLoadFromFile(single.c_str(), &ids[1]), ACL_SUCCESS) << Message();
  const size_t out_n = 16 * 12 * 12;
  for (uint32_t seed = 0; seed < 4; ++seed) {
    const auto x = RandomFloats(8 * 12 * 12, 70 + seed);
    void* dx = Upload(x);
    std::vector<float> got[2];
    for (int m = 0; m < 2; ++m) {
      void* dy = Device(out_n * 4);
      ASSERT_EQ(aclmdlExecute(ids[m], Dataset({dx}, {x.size() * 4}), Dataset({dy}, {out_n * 4})), ACL_SUCCESS)
          << Message();
      got[m] = Download(dy, out_n);
    }
    ExpectNear(got[0], got[1], ("multi-stream against one stream, input " + std::to_string(seed)).c_str());
  }
  EXPECT_EQ(aclmdlUnload(ids[0]), ACL_SUCCESS);
  EXPECT_EQ(aclmdlUnload(ids[1]), ACL_SUCCESS);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace npurt::test::model_streams
