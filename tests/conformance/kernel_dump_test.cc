// Argument dump of kernel launches (aclopStartDumpArgs, docs/dump.md): every launch made while it is on
// leaves its argument block, as the kernel received it, in <path>/<kernel>.<task>.<stream>.<time>.args.bin.
#include <dirent.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl_dump.h"
#include "kernel_test_util.h"

namespace cts {
namespace {

std::vector<std::string> ArgsFiles(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string n = e->d_name;
      if (n.size() > 9 && n.compare(n.size() - 9, 9, ".args.bin") == 0) out.push_back(dir + "/" + n);
    }
    closedir(d);
  }
  return out;
}

using KernelDumpTest = KernelTest;

TEST_F(KernelDumpTest, ArgsDumpWritesEachLaunchsArgumentBlock) {
  const std::string dir = MakeTempDir("dump_kargs");
  ASSERT_ACL_OK(aclopStartDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS, dir.c_str()));
  Stream s;
  DevBuf out(3 * 4 * sizeof(uint32_t));
  std::vector<uint8_t> args = ArgBlock().Add(out.get()).Add(uint32_t{0}).Bytes();
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), 4, s, nullptr, args.data(), args.size(), nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclopStopDumpArgs(ACL_OP_DUMP_OP_AICORE_ARGS));
  ASSERT_ACL_OK(aclrtLaunchKernelWithHostArgs(Func("cts_block_ids"), 4, s, nullptr, args.data(), args.size(), nullptr, 0));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  const auto files = ArgsFiles(dir);
  ASSERT_EQ(1u, files.size()) << "one launch while the dump was on";
  EXPECT_NE(std::string::npos, files[0].find("/cts_block_ids.")) << files[0];
  std::ifstream in(files[0], std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  EXPECT_EQ(std::string(args.begin(), args.end()), bytes.str());
}

}  // namespace
}  // namespace cts
