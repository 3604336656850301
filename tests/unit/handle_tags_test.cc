// Handle tags (base/handle.h): each layer declares its own (core/, ops/, api/handle_tags.h). No two tags of
// any layer share a value, none is kNone, and each is four printable characters, as a memory dump shows it.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <string>
#include <vector>

#include "api/handle_tags.h"
#include "core/handle_tags.h"
#include "ops/handle_tags.h"

namespace npurt {
namespace {

TEST(HandleTagsTest, EveryLayersTagsAreDistinctPrintableFourCharacterCodes) {
  std::vector<std::pair<const char*, HandleTag>> all;
  for (HandleTag t : handle_tags::kCoreTags) all.emplace_back("core", t);
  for (HandleTag t : handle_tags::kOpsTags) all.emplace_back("ops", t);
  for (HandleTag t : handle_tags::kApiTags) all.emplace_back("api", t);
  ASSERT_GE(all.size(), 30u);
  std::map<uint32_t, const char*> seen;
  for (const auto& [layer, tag] : all) {
    const auto v = static_cast<uint32_t>(tag);
    EXPECT_NE(tag, HandleTag::kNone) << layer;
    auto [it, fresh] = seen.emplace(v, layer);
    EXPECT_TRUE(fresh) << std::hex << "tag 0x" << v << " of " << layer << " is also one of " << it->second;
    for (int shift = 0; shift < 32; shift += 8) {
      EXPECT_TRUE(std::isprint(static_cast<int>((v >> shift) & 0xff))) << std::hex << "tag 0x" << v << " of " << layer;
    }
  }
}

}  // namespace
}  // namespace npurt
