// The model dump hooks reach a loaded model's operators (docs/dump.md): with aclmdlInitDump + aclmdlSetDump
// before the load (CANN's order), every execution writes each operator's tensors, named by the model's node
// names, holding what the operators read and wrote; a model loaded without a dump writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "model_fixture.h"

namespace npurt::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> DumpFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::exists(dir)) return files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  return files;
}

std::string FileBytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

TEST_F(ModelTest, DumpSetBeforeTheLoadWritesEveryOperatorsTensorsPerExecution) {
  // A directory of this process's own (the backends' suites run in parallel).
  const std::string probe = WriteTemp("dump_probe", {});
  const fs::path dir = probe + "_dir";
  fs::remove(probe);
  fs::remove_all(dir);
  const std::string config = WriteTemp("model_dump.json", [&] {
    const std::string text = "{\"dump\": {\"dump_path\": \"" + dir.string() + "\", \"dump_list\": [{}], "
                             "\"dump_mode\": \"all\"}}";
    return std::vector<uint8_t>(text.begin(), text.end());
  }());

  // Loaded before the dump is configured: nothing of it is dumped.
  uint32_t plain = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &plain), ACL_SUCCESS) << Message();
  ASSERT_EQ(aclmdlInitDump(), ACL_SUCCESS);
  ASSERT_EQ(aclmdlSetDump(config.c_str()), ACL_SUCCESS) << Message();
  uint32_t dumped = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &dumped), ACL_SUCCESS) << Message();

  const auto x = RandomFloats(ConvReluAdd::kX, 31);
  const auto r = RandomFloats(ConvReluAdd::kR, 32);
  void* out0 = Device(kBytesOut);
  void* out1 = Device(kBytesOut);
  aclmdlDataset* in = Dataset({Upload(x), Upload(r)}, {kBytesX, kBytesR});
  aclmdlDataset* out = Dataset({out0, out1}, {kBytesOut, kBytesOut});
  ASSERT_EQ(aclmdlExecute(plain, in, out), ACL_SUCCESS) << Message();
  EXPECT_TRUE(DumpFiles(dir).empty()) << "a model loaded before aclmdlSetDump is not dumped";

  ASSERT_EQ(aclmdlExecute(dumped, in, out), ACL_SUCCESS) << Message();
  const std::vector<fs::path> first = DumpFiles(dir);
  ASSERT_FALSE(first.empty()) << "no dump file under " << dir;
  // Every model output is some operator's dumped output, byte for byte (the same device memory).
  const std::vector<float> got0 = Download(out0, ConvReluAdd::kOut), got1 = Download(out1, ConvReluAdd::kOut);
  for (const std::vector<float>* want : {&got0, &got1}) {
    const std::string bytes(reinterpret_cast<const char*>(want->data()), want->size() * 4);
    bool found = false;
    for (const fs::path& p : first) {
      const std::string name = p.filename().string();
      const std::string content = FileBytes(p);
      if (name.find(".output.") != std::string::npos && content.size() >= bytes.size() &&
          content.compare(content.size() - bytes.size(), bytes.size(), bytes) == 0) {
        found = true;
      }
    }
    EXPECT_TRUE(found) << "no operator output file holds a model output";
  }
  // The model's inputs reach the first operators' input files.
  const std::string x_bytes(reinterpret_cast<const char*>(x.data()), x.size() * 4);
  bool x_found = false;
  for (const fs::path& p : first) {
    const std::string content = FileBytes(p);
    if (p.filename().string().find(".input.") != std::string::npos && content.size() >= x_bytes.size() &&
        content.compare(content.size() - x_bytes.size(), x_bytes.size(), x_bytes) == 0) {
      x_found = true;
    }
  }
  EXPECT_TRUE(x_found) << "no operator input file holds the model input";

  // A second execution (a replay of the recorded model) writes a second set.
  ASSERT_EQ(aclmdlExecute(dumped, in, out), ACL_SUCCESS) << Message();
  EXPECT_EQ(DumpFiles(dir).size(), 2 * first.size());
  ASSERT_EQ(aclmdlFinalizeDump(), ACL_SUCCESS);
  // Finalized: the recorded dump work writes nothing more.
  ASSERT_EQ(aclmdlExecute(dumped, in, out), ACL_SUCCESS) << Message();
  EXPECT_EQ(DumpFiles(dir).size(), 2 * first.size());
  ASSERT_EQ(aclmdlUnload(dumped), ACL_SUCCESS);
  ASSERT_EQ(aclmdlUnload(plain), ACL_SUCCESS);
  fs::remove_all(dir);
  fs::remove(config);
}

}  // namespace
}  // namespace npurt::test
