// A driver's configuration section (hal/driver_config.h) and the sim's reading of it
// (drivers/sim/sim_options.h): typed reads keep defaults for absent keys, refuse bad values with their
// origin and that origin's error code, and the file's spelling (a JSON string is not a number) is honoured.
#include <gtest/gtest.h>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/sim/sim_options.h"
#include "hal/driver_config.h"
#include "hal/driver_registry.h"

namespace npurt::hal {
namespace {

DriverConfig::Setting FromFile(std::string text, DriverConfig::Form form) {
  DriverConfig::Setting s;
  s.text = std::move(text);
  s.origin = "npurt.unit.key in the aclInit config";
  s.error_code = ACL_ERROR_FILE_ATTR_INVALID;
  s.form = form;
  return s;
}

TEST(DriverConfigTest, AbsentKeysKeepTheirDefaults) {
  const DriverConfig c;
  uint64_t n = 7;
  std::string s = "default";
  bool b = true;
  EXPECT_TRUE(c.ReadUint("n", 0, 10, &n).ok());
  EXPECT_TRUE(c.ReadString("s", &s).ok());
  EXPECT_TRUE(c.ReadBool("b", &b).ok());
  EXPECT_EQ(n, 7u);
  EXPECT_EQ(s, "default");
  EXPECT_TRUE(b);
}

TEST(DriverConfigTest, EnvironmentTextIsReadAndBadTextNamesTheVariable) {
  DriverConfig c;
  c.SetText("n", "42", "environment variable NPURT_UNIT_N");
  c.SetText("flag", "0", "environment variable NPURT_UNIT_FLAG");
  uint64_t n = 0;
  ASSERT_TRUE(c.ReadUint("n", 0, 100, &n).ok());
  EXPECT_EQ(n, 42u);
  bool flag = true;
  ASSERT_TRUE(c.ReadBool("flag", &flag).ok());
  EXPECT_FALSE(flag);
  for (const char* bad : {"-3", " 4", "4x", "", "101", "18446744073709551616"}) {
    c.SetText("n", bad, "environment variable NPURT_UNIT_N");
    n = 5;
    const Status st = c.ReadUint("n", 0, 100, &n);
    EXPECT_EQ(st.code(), ACL_ERROR_INVALID_PARAM) << bad;
    EXPECT_NE(st.message().find("environment variable NPURT_UNIT_N"), std::string::npos) << st.message();
    EXPECT_EQ(n, 5u) << "a refused value leaves the default";
  }
  c.SetText("flag", "yes", "environment variable NPURT_UNIT_FLAG");
  EXPECT_EQ(c.ReadBool("flag", &flag).code(), ACL_ERROR_INVALID_PARAM);
}

TEST(DriverConfigTest, FileValuesMustHaveTheirJsonType) {
  DriverConfig c;
  uint64_t n = 0;
  std::string s;
  bool b = false;
  c.Set("n", FromFile("12", DriverConfig::Form::kNumber));
  ASSERT_TRUE(c.ReadUint("n", 0, 100, &n).ok());
  EXPECT_EQ(n, 12u);
  c.Set("n", FromFile("12", DriverConfig::Form::kString));  // "12": a string, not a number
  EXPECT_EQ(c.ReadUint("n", 0, 100, &n).code(), ACL_ERROR_FILE_ATTR_INVALID);
  c.Set("n", FromFile("2.5", DriverConfig::Form::kOther));
  const Status st = c.ReadUint("n", 0, 100, &n);
  EXPECT_EQ(st.code(), ACL_ERROR_FILE_ATTR_INVALID);
  EXPECT_NE(st.message().find("aclInit config"), std::string::npos) << st.message();
  c.Set("s", FromFile("3", DriverConfig::Form::kNumber));
  EXPECT_EQ(c.ReadString("s", &s).code(), ACL_ERROR_FILE_ATTR_INVALID);
  c.Set("b", FromFile("true", DriverConfig::Form::kBool));
  ASSERT_TRUE(c.ReadBool("b", &b).ok());
  EXPECT_TRUE(b);
  c.Set("b", FromFile("1", DriverConfig::Form::kNumber));  // the file says true or false
  EXPECT_EQ(c.ReadBool("b", &b).code(), ACL_ERROR_FILE_ATTR_INVALID);
}

TEST(DriverConfigTest, ALaterSourceReplacesAnEarlierOne) {
  DriverConfig c;
  c.SetText("n", "3", "environment variable NPURT_UNIT_N");
  c.Set("n", FromFile("9", DriverConfig::Form::kNumber));
  uint64_t n = 0;
  ASSERT_TRUE(c.ReadUint("n", 0, 100, &n).ok());
  EXPECT_EQ(n, 9u);
  EXPECT_EQ(c.Find("n")->origin, "npurt.unit.key in the aclInit config");
}

TEST(SimOptionsTest, TheSimReadsItsSection) {
  DriverConfig c;
  c.SetText("device_count", "3");
  c.SetText("memory_mb", "64");
  c.SetText("aicore_count", "5");
  c.SetText("soc", "Ascend310P3");
  c.SetText("mode", "sync");
  c.SetText("host_visible_memory", "0");
  auto o = drivers::sim::ParseSimOptions(c);
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->device_count, 3u);
  EXPECT_EQ(o->memory_bytes, 64ull << 20);
  EXPECT_EQ(o->aicore_count, 5u);
  EXPECT_EQ(o->soc_name, "Ascend310P3");
  EXPECT_TRUE(o->synchronous);
  EXPECT_FALSE(o->host_visible_memory);
  auto defaults = drivers::sim::ParseSimOptions(DriverConfig{});
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->device_count, 2u);
  EXPECT_FALSE(defaults->synchronous);
  EXPECT_TRUE(defaults->host_visible_memory);
}

TEST(SimOptionsTest, BadSettingsAreRefusedWithTheirOrigin) {
  const std::pair<const char*, const char*> kBad[] = {
      {"device_count", "65"}, {"memory_mb", "15"}, {"aicore_count", "1025"}, {"mode", "fast"},
      {"host_visible_memory", "2"}};
  for (const auto& [key, value] : kBad) {
    DriverConfig c;
    c.SetText(key, value, std::string("environment variable ") + key);
    const Status st = drivers::sim::ParseSimOptions(c).status();
    EXPECT_EQ(st.code(), ACL_ERROR_INVALID_PARAM) << key << "=" << value;
    EXPECT_NE(st.message().find(std::string("environment variable ") + key), std::string::npos) << st.message();
    // The registered check refuses the same section, as aclInit asks it to.
    RegisterBuiltinDrivers();
    EXPECT_EQ(CheckDriverConfig("sim", c).code(), ACL_ERROR_INVALID_PARAM) << key;
  }
  EXPECT_TRUE(CheckDriverConfig("no_such_driver", DriverConfig{}).ok()) << "a section of an absent driver";
}

}  // namespace
}  // namespace npurt::hal
