// The environment table (src/base/env.h): one row per variable, in order, and docs/environment.md lists
// exactly the same variables; Raw, IsSet and IsOne read the variable at each call.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "base/env.h"

namespace npurt::env {
namespace {

TEST(EnvTest, EveryVariableHasOneRowInOrderWithAMeaning) {
  const auto all = All();
  ASSERT_EQ(all.size(), static_cast<size_t>(Var::kCount));
  std::set<std::string> names;
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(static_cast<size_t>(all[i].var), i);
    EXPECT_EQ(&Info(all[i].var), &all[i]);
    EXPECT_TRUE(names.insert(all[i].name).second) << all[i].name << " twice";
    EXPECT_GT(std::strlen(all[i].meaning), 10u) << all[i].name;
  }
}

TEST(EnvTest, TheDocsListExactlyTheTable) {
  std::ifstream in(std::string(NPURT_SOURCE_DIR) + "/docs/environment.md");
  ASSERT_TRUE(in.good()) << "docs/environment.md is missing";
  std::stringstream text;
  text << in.rdbuf();
  // Rows "| `NAME` | ..." (no std::regex: GCC 12 reports false maybe-uninitialized errors in it under ASan).
  std::set<std::string> documented;
  std::string line;
  while (std::getline(text, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find('`', 3);
    if (end != std::string::npos) documented.insert(line.substr(3, end - 3));
  }
  std::set<std::string> table;
  for (const VarInfo& v : All()) table.insert(v.name);
  for (const std::string& name : table) EXPECT_TRUE(documented.count(name)) << name << " is not in docs/environment.md";
  for (const std::string& name : documented) EXPECT_TRUE(table.count(name)) << name << " is documented but not read";
}

TEST(EnvTest, ValuesAreReadAtEachCall) {
  const char* name = Info(Var::kOpCacheStats).name;
  const char* saved = std::getenv(name);
  const std::string keep = saved != nullptr ? saved : "";
  std::mt19937 rng(std::random_device{}());
  const std::string value = "v" + std::to_string(rng());
  ASSERT_EQ(setenv(name, value.c_str(), 1), 0);
  ASSERT_NE(Raw(Var::kOpCacheStats), nullptr);
  EXPECT_EQ(std::string(Raw(Var::kOpCacheStats)), value);
  EXPECT_TRUE(IsSet(Var::kOpCacheStats));
  EXPECT_FALSE(IsOne(Var::kOpCacheStats));
  setenv(name, "1", 1);
  EXPECT_TRUE(IsOne(Var::kOpCacheStats));
  setenv(name, "", 1);
  EXPECT_FALSE(IsSet(Var::kOpCacheStats));
  EXPECT_NE(Raw(Var::kOpCacheStats), nullptr);
  unsetenv(name);
  EXPECT_EQ(Raw(Var::kOpCacheStats), nullptr);
  EXPECT_FALSE(IsSet(Var::kOpCacheStats));
  if (saved != nullptr) setenv(name, keep.c_str(), 1);
}

}  // namespace
}  // namespace npurt::env
