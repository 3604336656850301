// Entry point of the conformance suite.
//
//   npurt_conformance [gtest flags]          runs the tests; aclInit(NULL) once before the first test
//                                            and aclFinalize after the last (a global environment)
//   npurt_conformance --cts-child <name>     runs child scenario <name> (see CTS_CHILD) in this fresh
//                                            process and exits with its code; used by RunChild
//
// ctest runs every test in its own process (gtest_discover_tests), once per backend configuration;
// the suite also passes when the whole binary runs in one process.
#include <gtest/gtest.h>

#include <cstring>

#include "acl/acl.h"
#include "test_util.h"

namespace {

class AclEnvironment : public testing::Environment {
 public:
  void SetUp() override {
    ASSERT_ACL_OK(aclInit(nullptr));
    cts::ClearErrorState();
  }
  void TearDown() override {
    // Tests that finalize restore the initialised state before they end.
    EXPECT_ACL_OK(aclFinalize());
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::strcmp(argv[1], "--cts-child") == 0) return cts::RunChildScenario(argv[2]);
  testing::InitGoogleTest(&argc, argv);
  testing::AddGlobalTestEnvironment(new AclEnvironment);
  return RUN_ALL_TESTS();
}
