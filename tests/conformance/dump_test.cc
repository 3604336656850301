// Operator data dump (docs/dump.md): aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump and the aclInit
// JSON "dump" section dump the inputs and outputs of every operator execution as .npy files (or hand them
// to the acldumpRegCallback callback in chunks), dump_data "stats" writes a CSV of statistics,
// aclopStartDumpArgs writes one operator info file per operator shape, and bad configurations fail with
// the documented codes and a message.
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_mul.h"
#include "test_util.h"

namespace cts {
namespace {

std::vector<std::string> g_walk;
std::string g_suffix;

int Collect(const char* path, const struct stat*, int type, struct FTW*) {
  const std::string p = path;
  if (type == FTW_F && p.size() >= g_suffix.size() && p.compare(p.size() - g_suffix.size(), g_suffix.size(), g_suffix) == 0) {
    g_walk.push_back(p);
  }
  return 0;
}

// Every file under `dir` (recursively) whose name ends with `suffix`, sorted.
std::vector<std::string> FilesUnder(const std::string& dir, const std::string& suffix) {
  g_walk.clear();
  g_suffix = suffix;
  nftw(dir.c_str(), &Collect, 16, FTW_PHYS);
  std::sort(g_walk.begin(), g_walk.end());
  return g_walk;
}

std::string RealPath(const std::string& p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) != nullptr ? buf : p;
}

// A parsed .npy file (format 1.0): dtype string, shape text and data bytes.
struct Npy {
  bool ok = false;
  std::string descr, shape, data;
};

Npy ParseNpy(const std::string& bytes) {
  Npy n;
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0 || bytes[6] != 1) return n;
  const size_t len = static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
  if ((10 + len) % 64 != 0 || bytes.size() < 10 + len) return n;
  const std::string head = bytes.substr(10, len);
  const size_t d = head.find("'descr': '");
  const size_t s = head.find("'shape': (");
  if (d == std::string::npos || s == std::string::npos || head.find("'fortran_order': False") == std::string::npos) {
    return n;
  }
  n.descr = head.substr(d + 10, head.find('\'', d + 10) - d - 10);
  n.shape = head.substr(s + 9, head.find(')', s) - s - 8);
  n.data = bytes.substr(10 + len);
  n.ok = head.back() == '\n';
  return n;
}

std::string Bytes(const std::vector<float>& v) { return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4); }

std::vector<float> RandomFloats(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

bool RecentErrorHas(const char* text) {
  const char* m = aclGetRecentErrMsg();
  return m != nullptr && std::strstr(m, text) != nullptr;
}

// A float tensor of `dims` in device memory, with its aclTensor.
struct NnTensor {
  std::vector<int64_t> dims;
  DevBuf buf;
  aclTensor* t = nullptr;
  NnTensor(std::vector<int64_t> d, const std::vector<float>& init) : dims(std::move(d)), buf(init.size() * 4) {
    EXPECT_ACL_OK(buf.Upload(init.data(), init.size() * 4));
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = strides[k] * dims[k];
    t = aclCreateTensor(dims.data(), dims.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, dims.data(),
                        dims.size(), buf.get());
  }
  ~NnTensor() { aclDestroyTensor(t); }
  std::vector<float> Read() const {
    std::vector<float> v(buf.size() / 4);
    EXPECT_ACL_OK(buf.Download(v.data(), buf.size()));
    return v;
  }
};

class DumpTest : public CtsTest {
 protected:
  void SetUp() override {
    CtsTest::SetUp();
    ASSERT_ACL_OK(aclrtCreateStream(&stream_));
    dir_ = MakeTempDir("dump_op");
    ASSERT_FALSE(dir_.empty());
  }
  void TearDown() override {
    (void)aclmdlFinalizeDump();
    (void)aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS);
    acldumpUnregCallback();
    if (stream_ != nullptr) {
      EXPECT_ACL_OK(aclrtDestroyStream(stream_));
    }
    ClearErrorState();
    CtsTest::TearDown();
  }
  std::string Config(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    WriteFile(path, text);
    return path;
  }
  // aclmdlInitDump + aclmdlSetDump of {"dump": {"dump_path": <out>, <extra>}}.
  void StartModelDump(const std::string& out, const std::string& extra) {
    ASSERT_ACL_OK(aclmdlInitDump());
    ASSERT_ACL_OK(aclmdlSetDump(Config("cfg.json", "{\"dump\": {\"dump_path\": \"" + out + "\", " + extra + "}}").c_str()));
  }
  void Add(const NnTensor& a, const NnTensor& b, const NnTensor& out, float alpha_value) {
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(0, aclnnAddGetWorkspaceSize(a.t, b.t, alpha, out.t, &ws, &ex)) << aclGetRecentErrMsg();
    ASSERT_EQ(0, aclnnAdd(nullptr, ws, ex, stream_)) << aclGetRecentErrMsg();
    aclDestroyScalar(alpha);
  }
  void InplaceAdd(const NnTensor& self, const NnTensor& other, float alpha_value) {
    aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(0, aclnnInplaceAddGetWorkspaceSize(self.t, other.t, alpha, &ws, &ex)) << aclGetRecentErrMsg();
    ASSERT_EQ(0, aclnnInplaceAdd(nullptr, ws, ex, stream_)) << aclGetRecentErrMsg();
    aclDestroyScalar(alpha);
  }
  void Mul(const NnTensor& a, const NnTensor& b, const NnTensor& out) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(0, aclnnMulGetWorkspaceSize(a.t, b.t, out.t, &ws, &ex)) << aclGetRecentErrMsg();
    ASSERT_EQ(0, aclnnMul(nullptr, ws, ex, stream_)) << aclGetRecentErrMsg();
  }

  aclrtStream stream_ = nullptr;
  std::string dir_;
};

// Files of one execution: "<...>/<time>/<device>/<type>.<name>.<task>.<stream>.<timestamp>" -> files.
std::map<std::string, std::vector<std::string>> ByExecution(const std::vector<std::string>& files) {
  std::map<std::string, std::vector<std::string>> out;
  for (const std::string& f : files) {
    size_t cut = f.find(".input.");
    if (cut == std::string::npos) cut = f.find(".output.");
    out[f.substr(0, cut)].push_back(f);
  }
  return out;
}

uint64_t TaskIdOf(const std::string& prefix) {
  // <type>.<name>.<task>.<stream>.<timestamp>
  std::string name = prefix.substr(prefix.rfind('/') + 1);
  for (int i = 0; i < 2; ++i) name = name.substr(name.find('.') + 1);
  return std::stoull(name.substr(0, name.find('.')));
}

TEST_F(DumpTest, ModelDumpWritesInputsBeforeAndOutputsAfterEveryExecution) {
  const std::string out = dir_ + "/out";
  StartModelDump(out, "\"dump_list\": [{}], \"dump_op_switch\": \"on\", \"dump_mode\": \"all\"");
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(nullptr, path);
  EXPECT_EQ(RealPath(out), path);

  const std::vector<float> a0 = RandomFloats(24, 11), b = RandomFloats(24, 12);
  NnTensor self({4, 6}, a0), other({4, 6}, b);
  // In place: each execution's input 0 is the previous execution's output 0.
  InplaceAdd(self, other, 2.0f);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::vector<float> a1 = self.Read();
  InplaceAdd(self, other, 2.0f);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const std::vector<float> a2 = self.Read();
  ASSERT_ACL_OK(aclmdlFinalizeDump());

  auto runs = ByExecution(FilesUnder(out, ".npy"));
  ASSERT_EQ(2u, runs.size());
  std::vector<std::string> prefixes;
  for (auto& [prefix, files] : runs) prefixes.push_back(prefix);
  std::sort(prefixes.begin(), prefixes.end(),
            [](const std::string& x, const std::string& y) { return TaskIdOf(x) < TaskIdOf(y); });
  const std::vector<float>* want_in[2] = {&a0, &a1};
  const std::vector<float>* want_out[2] = {&a1, &a2};
  for (int run = 0; run < 2; ++run) {
    const std::string& p = prefixes[run];
    EXPECT_NE(std::string::npos, p.find("/0/Add.aclnnInplaceAdd.")) << p;
    Npy in0 = ParseNpy(Slurp(p + ".input.0.npy"));
    Npy in1 = ParseNpy(Slurp(p + ".input.1.npy"));
    Npy out0 = ParseNpy(Slurp(p + ".output.0.npy"));
    ASSERT_TRUE(in0.ok && in1.ok && out0.ok) << p;
    EXPECT_EQ("<f4", in0.descr);
    EXPECT_EQ("(4, 6)", in0.shape);
    EXPECT_TRUE(in0.data == Bytes(*want_in[run])) << "run " << run << ": input 0 is not what the op read";
    EXPECT_TRUE(in1.data == Bytes(b)) << "run " << run;
    EXPECT_TRUE(out0.data == Bytes(*want_out[run])) << "run " << run << ": output 0 is not what the op wrote";
  }

  // Finalized: nothing more is dumped.
  InplaceAdd(self, other, 2.0f);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_EQ(6u, FilesUnder(out, ".npy").size());
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
}

TEST_F(DumpTest, ModeAndLayerSelectWhatIsDumped) {
  const std::string out = dir_ + "/out";
  StartModelDump(out, "\"dump_list\": [{\"layer\": [\"Mul\"]}], \"dump_mode\": \"input\"");
  const std::vector<float> a = RandomFloats(8, 21), b = RandomFloats(8, 22);
  NnTensor x({8}, a), y({8}, b), z({8}, RandomFloats(8, 23));
  Add(x, y, z, 1.0f);  // not in the layer list
  Mul(x, y, z);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const auto files = FilesUnder(out, ".npy");
  ASSERT_EQ(2u, files.size());
  for (const std::string& f : files) {
    EXPECT_NE(std::string::npos, f.find("/Mul.aclnnMul.")) << f;
    EXPECT_EQ(std::string::npos, f.find(".output.")) << f;
  }
  EXPECT_TRUE(ParseNpy(Slurp(files[0])).data == Bytes(a));
  EXPECT_TRUE(ParseNpy(Slurp(files[1])).data == Bytes(b));
}

TEST_F(DumpTest, AclopOperatorsAndReplayedModelsAreDumpedPerExecution) {
  const std::string out = dir_ + "/out";
  StartModelDump(out, "\"dump_op_switch\": \"on\"");
  NnTensor x({6}, RandomFloats(6, 71)), y({6}, RandomFloats(6, 72)), z({6}, RandomFloats(6, 73));
  const int64_t dims[] = {6};
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  aclDataBuffer* bx = aclCreateDataBuffer(x.buf.get(), 24);
  aclDataBuffer* by = aclCreateDataBuffer(y.buf.get(), 24);
  aclDataBuffer* bz = aclCreateDataBuffer(z.buf.get(), 24);
  aclTensorDesc* in_desc[] = {desc, desc};
  aclTensorDesc* out_desc[] = {desc};
  aclDataBuffer* ins[] = {bx, by};
  aclDataBuffer* outs[] = {bz};
  ASSERT_ACL_OK(aclopExecuteV2("Add", 2, in_desc, ins, 1, out_desc, outs, nullptr, stream_));
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  auto files = FilesUnder(out, ".npy");
  ASSERT_EQ(1u, files.size());
  EXPECT_NE(std::string::npos, files[0].find("/Add.Add.")) << files[0];
  EXPECT_TRUE(ParseNpy(Slurp(files[0])).data == Bytes(z.Read()));

  // An operator captured into a model is dumped at every replay.
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  Mul(x, y, z);
  ASSERT_ACL_OK(aclmdlRICaptureEnd(stream_, &ri));
  for (int i = 0; i < 2; ++i) {
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, stream_));
    ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
  int mul_files = 0;
  for (const std::string& f : FilesUnder(out, ".npy")) mul_files += f.find("/Mul.aclnnMul.") != std::string::npos;
  EXPECT_EQ(2, mul_files);
  aclDestroyDataBuffer(bx);
  aclDestroyDataBuffer(by);
  aclDestroyDataBuffer(bz);
  aclDestroyTensorDesc(desc);
}

std::mutex g_chunk_mu;
std::map<std::string, std::string> g_chunks;
int g_chunk_count = 0;
bool g_chunk_order_ok = true;

int32_t OnChunk(const acldumpChunk* c, int32_t len) {
  std::lock_guard<std::mutex> lock(g_chunk_mu);
  if (static_cast<size_t>(len) != sizeof(acldumpChunk) + c->bufLen) g_chunk_order_ok = false;
  std::string& file = g_chunks[c->fileName];
  if (c->offset != static_cast<int64_t>(file.size())) g_chunk_order_ok = false;
  file.append(reinterpret_cast<const char*>(c->dataBuf), c->bufLen);
  ++g_chunk_count;
  return 0;
}

TEST_F(DumpTest, CallbackGetsTheSameBytesInChunksInsteadOfFiles) {
  g_chunks.clear();
  g_chunk_count = 0;
  ASSERT_ACL_OK(acldumpRegCallback(&OnChunk, 0));
  const std::string out = dir_ + "/out";
  StartModelDump(out, "\"dump_list\": [{}], \"dump_op_switch\": \"on\", \"dump_mode\": \"output\"");
  const size_t n = 512 * 640;  // 1.25 MiB: more than one chunk
  NnTensor x({512, 640}, RandomFloats(n, 31)), y({512, 640}, RandomFloats(n, 32)), z({512, 640}, RandomFloats(n, 33));
  Add(x, y, z, 0.5f);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  acldumpUnregCallback();
  std::lock_guard<std::mutex> lock(g_chunk_mu);
  ASSERT_EQ(1u, g_chunks.size());
  EXPECT_GE(g_chunk_count, 2);
  EXPECT_TRUE(g_chunk_order_ok);
  const std::string& name = g_chunks.begin()->first;
  EXPECT_EQ(0u, name.find(RealPath(out) + "/")) << name;
  EXPECT_NE(std::string::npos, name.find(".output.0.npy")) << name;
  Npy npy = ParseNpy(g_chunks.begin()->second);
  ASSERT_TRUE(npy.ok);
  EXPECT_EQ("(512, 640)", npy.shape);
  EXPECT_TRUE(npy.data == Bytes(z.Read()));
  EXPECT_TRUE(FilesUnder(out, ".npy").empty()) << "with a callback, nothing is written to files";
}

TEST_F(DumpTest, StatsModeWritesOneCsvPerExecution) {
  const std::string out = dir_ + "/out";
  StartModelDump(out, "\"dump_op_switch\": \"on\", \"dump_mode\": \"all\", \"dump_data\": \"stats\", "
                      "\"dump_stats\": [\"Max\", \"Min\", \"Nan\"]");
  std::vector<float> a = RandomFloats(16, 41);
  a[3] = std::numeric_limits<float>::quiet_NaN();
  NnTensor x({16}, a), y({16}, RandomFloats(16, 42)), z({16}, RandomFloats(16, 43));
  Add(x, y, z, 1.0f);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  EXPECT_TRUE(FilesUnder(out, ".npy").empty());
  const auto csvs = FilesUnder(out, ".csv");
  ASSERT_EQ(1u, csvs.size());
  std::istringstream lines(Slurp(csvs[0]));
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(0u, header.find("Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot")) << header;
  EXPECT_NE(std::string::npos, header.find("Max Value,Min Value,Count,Nan Count")) << header;
  std::getline(lines, row);  // input 0
  EXPECT_EQ(0u, row.find("Add,aclnnAdd,")) << row;
  EXPECT_NE(std::string::npos, row.find(",input,0,64,")) << row;
  float mx = -1e30f, mn = 1e30f;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i == 3) continue;
    mx = std::max(mx, a[i]);
    mn = std::min(mn, a[i]);
  }
  // ...,Max,Min,Count,Nan
  std::vector<std::string> cols;
  std::stringstream ss(row);
  for (std::string c; std::getline(ss, c, ',');) cols.push_back(c);
  ASSERT_GE(cols.size(), 4u);
  EXPECT_FLOAT_EQ(mx, std::stof(cols[cols.size() - 4]));
  EXPECT_FLOAT_EQ(mn, std::stof(cols[cols.size() - 3]));
  EXPECT_EQ("16", cols[cols.size() - 2]);
  EXPECT_EQ("1", cols[cols.size() - 1]);
  int rows = 1;
  while (std::getline(lines, row)) ++rows;
  EXPECT_EQ(3, rows) << "two inputs and one output";
}

TEST_F(DumpTest, ArgsDumpWritesOneOperatorInfoFilePerShape) {
  const std::string args = dir_ + "/args";
  ASSERT_ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, args.c_str()));
  const char* path = acldumpGetPath(DATA_DUMP);
  ASSERT_NE(nullptr, path);
  EXPECT_EQ(RealPath(args), path);
  NnTensor x({2, 3}, RandomFloats(6, 51)), y({2, 3}, RandomFloats(6, 52)), z({2, 3}, RandomFloats(6, 53));
  NnTensor u({5}, RandomFloats(5, 54)), v({5}, RandomFloats(5, 55)), w({5}, RandomFloats(5, 56));
  Add(x, y, z, 1.0f);
  Add(x, y, z, 2.0f);  // same shapes: same file
  Add(u, v, w, 1.0f);
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  ASSERT_ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
  NnTensor p({7}, RandomFloats(7, 57)), q({7}, RandomFloats(7, 58)), r({7}, RandomFloats(7, 59));
  Add(p, q, r, 1.0f);  // stopped: no file
  ASSERT_ACL_OK(aclrtSynchronizeStream(stream_));
  const auto files = FilesUnder(args, ".json");
  ASSERT_EQ(2u, files.size());
  bool saw_2x3 = false;
  for (const std::string& f : files) {
    const std::string text = Slurp(f);
    EXPECT_NE(std::string::npos, f.find("/Add_")) << f;
    EXPECT_NE(std::string::npos, text.find("\"op_type\": \"Add\"")) << text;
    EXPECT_NE(std::string::npos, text.find("\"data_type\": \"float32\"")) << text;
    std::string compact = text;
    compact.erase(std::remove_if(compact.begin(), compact.end(), [](char c) { return std::isspace(c) != 0; }),
                  compact.end());
    saw_2x3 = saw_2x3 || compact.find("\"shape\":[2,3]") != std::string::npos;
  }
  EXPECT_TRUE(saw_2x3);
}

TEST_F(DumpTest, BadConfigurationsFailWithTheirCodeAndAMessage) {
  const std::string ok_cfg = Config("ok.json", "{\"dump\": {\"dump_path\": \"" + dir_ + "/o\", \"dump_op_switch\": \"on\"}}");
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclmdlSetDump(ok_cfg.c_str()));
  EXPECT_TRUE(RecentErrorHas("aclmdlInitDump"));
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_NOT_RUN, aclmdlFinalizeDump());
  ASSERT_ACL_OK(aclmdlInitDump());
  EXPECT_ACL_ERR(ACL_ERROR_DUMP_ALREADY_RUN, aclmdlInitDump());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlSetDump(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_FILE, aclmdlSetDump((dir_ + "/missing.json").c_str()));
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclmdlSetDump(Config("bad.json", "{\"dump\": {\"dump_path\": ").c_str()));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump(Config("nodump.json", "{\"other\": 1}").c_str()));
  struct Case {
    const char* json;
    const char* message;
  } cases[] = {
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_op_switch\": \"on\", \"dump_mode\": \"sideways\"}}", "dump_mode"},
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_op_switch\": \"maybe\"}}", "dump_op_switch"},
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_op_switch\": \"on\", \"dump_data\": \"pixels\"}}", "dump_data"},
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_op_switch\": \"on\", \"dump_stats\": [\"Median\"]}}", "dump_stats"},
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_list\": [1]}}", "dump_list"},
      {"{\"dump\": {\"dump_op_switch\": \"on\"}}", "dump_path"},
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_scene\": \"watcher\"}}", "watcher"},
      {"{\"dump\": {\"dump_path\": \"DIR/o\", \"dump_debug\": \"on\"}}", "dump_debug"},
      {"{\"dump\": {\"dump_path\": \"DIR/file/sub\", \"dump_op_switch\": \"on\"}}", "cannot be created"},
  };
  WriteFile(dir_ + "/file", "a regular file, not a directory");
  for (const Case& c : cases) {
    std::string json = c.json;
    const size_t at = json.find("DIR");
    if (at != std::string::npos) json.replace(at, 3, dir_);
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_DUMP_CONFIG, aclmdlSetDump(Config("case.json", json).c_str())) << json;
    EXPECT_TRUE(RecentErrorHas(c.message)) << json << " -> " << c.message;
  }
  EXPECT_ACL_OK(aclmdlSetDump(ok_cfg.c_str()));
  EXPECT_ACL_OK(aclmdlFinalizeDump());

  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStartDumpArgs(2, dir_.c_str()));
  EXPECT_TRUE(RecentErrorHas("dumpType"));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, (dir_ + "/file/x").c_str()));
  EXPECT_TRUE(RecentErrorHas("cannot be created"));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopStopDumpArgs(7));
  EXPECT_EQ(nullptr, acldumpGetPath(static_cast<acldumpType>(9)));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acldumpRegCallback(&OnChunk, 1));
}

TEST_F(DumpTest, SetDumpWithADumpSceneMovesTheExceptionDumpPath) {
  const char* collect = std::getenv("NPU_COLLECT_PATH");
  const char* work = std::getenv("ASCEND_WORK_PATH");
  if ((collect != nullptr && *collect != '\0') || (work != nullptr && *work != '\0')) {
    GTEST_SKIP() << "NPU_COLLECT_PATH / ASCEND_WORK_PATH take precedence over the config";
  }
  StartModelDump(dir_, "\"dump_scene\": \"aic_err_brief_dump\"");
  char path[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  ASSERT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof path));
  EXPECT_EQ(dir_ + "/extra-info/data-dump/0", path);
  ASSERT_ACL_OK(aclmdlFinalizeDump());
  ASSERT_ACL_OK(acldumpGetExceptionInfoPath(path, sizeof path));
  EXPECT_NE(dir_ + "/extra-info/data-dump/0", path);
}

// aclInit's JSON "dump" section: the op dump of every execution, and aclmdlInitDump refused meanwhile.
CTS_CHILD(dump_init_json) {
  const aclError init = aclInit(std::getenv("DUMP_TEST_JSON"));
  ChildReport("init_rc", init);
  if (init != ACL_SUCCESS) return 0;
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 3;
  ChildReport("mdl_init_rc", aclmdlInitDump());
  const char* path = acldumpGetPath(DATA_DUMP);
  ChildReportText("path", path != nullptr ? path : "");
  std::vector<int64_t> dims{3, 5};
  std::vector<int64_t> strides{5, 1};
  std::vector<float> host = RandomFloats(15, 61);
  void* dev[3] = {};
  aclTensor* t[3] = {};
  for (int i = 0; i < 3; ++i) {
    if (aclrtMalloc(&dev[i], 60, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 4;
    (void)aclrtMemcpy(dev[i], 60, host.data(), 60, ACL_MEMCPY_HOST_TO_DEVICE);
    t[i] = aclCreateTensor(dims.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, dims.data(), 2, dev[i]);
  }
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  for (int run = 0; run < 3; ++run) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    if (aclnnAddGetWorkspaceSize(t[0], t[1], alpha, t[2], &ws, &ex) != 0 || aclnnAdd(nullptr, 0, ex, nullptr) != 0) {
      return 5;
    }
  }
  ChildReport("sync_rc", aclrtSynchronizeDevice());
  aclDestroyScalar(alpha);
  for (int i = 0; i < 3; ++i) {
    aclDestroyTensor(t[i]);
    (void)aclrtFree(dev[i]);
  }
  ChildReport("finalize_rc", aclFinalize());
  return 0;
}

class DumpInitTest : public CtsNoDeviceTest {};

TEST_F(DumpInitTest, AclInitJsonDumpsEveryOperatorExecution) {
  const std::string dir = MakeTempDir("dump_init");
  const std::string json = dir + "/acl.json";
  WriteFile(json, "{\"dump\": {\"dump_path\": \"" + dir + "/out\", \"dump_list\": [], \"dump_op_switch\": \"on\", "
                  "\"dump_data\": \"tensor\"}}");
  ChildResult r = RunChild("dump_init_json", {{"DUMP_TEST_JSON", json}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("init_rc"));
  EXPECT_EQ(ACL_ERROR_DUMP_ALREADY_RUN, r.Int("mdl_init_rc"));
  EXPECT_EQ(RealPath(dir + "/out"), r.Text("path"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("sync_rc"));
  // dump_mode defaults to output: one file per execution.
  EXPECT_EQ(3u, FilesUnder(dir + "/out", ".output.0.npy").size());
  EXPECT_TRUE(FilesUnder(dir + "/out", ".input.0.npy").empty());

  WriteFile(json, "{\"dump\": {\"dump_path\": \"" + dir + "/out\", \"dump_op_switch\": \"on\", \"dump_mode\": \"x\"}}");
  r = RunChild("dump_init_json", {{"DUMP_TEST_JSON", json}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_ERROR_INVALID_DUMP_CONFIG, r.Int("init_rc"));
}

}  // namespace
}  // namespace cts
