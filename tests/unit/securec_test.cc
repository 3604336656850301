// libc_sec (src/securec): each function succeeds within destMax and fails, clearing the destination as
// documented, when the data would not fit, a pointer is null or the ranges overlap.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <vector>

#include "securec.h"

namespace {

std::vector<unsigned char> Random(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng() | 1);  // never zero
  return v;
}

TEST(Securec, MemoryFunctions) {
  std::vector<unsigned char> src = Random(256, 1), dst = Random(256, 2);
  EXPECT_EQ(EOK, memcpy_s(dst.data(), dst.size(), src.data(), 200));
  EXPECT_EQ(0, std::memcmp(dst.data(), src.data(), 200));
  EXPECT_EQ(ERANGE, memcpy_s(dst.data(), 100, src.data(), 101));
  EXPECT_EQ(std::vector<unsigned char>(100, 0), std::vector<unsigned char>(dst.begin(), dst.begin() + 100));
  EXPECT_EQ(EINVAL, memcpy_s(nullptr, 10, src.data(), 1));
  EXPECT_EQ(EINVAL, memcpy_s(dst.data(), 10, nullptr, 1));
  EXPECT_EQ(54, memcpy_s(dst.data(), 100, dst.data() + 10, 20)) << "overlap";
  std::vector<unsigned char> m = Random(64, 3), expect = m;
  std::memmove(expect.data() + 4, expect.data(), 32);
  EXPECT_EQ(EOK, memmove_s(m.data() + 4, 60, m.data(), 32));
  EXPECT_EQ(expect, m);
  EXPECT_EQ(EOK, memset_s(m.data(), m.size(), 0x5a, 10));
  EXPECT_EQ(0x5a, m[9]);
  EXPECT_NE(0x5a, m[10]);
  EXPECT_EQ(ERANGE, memset_s(m.data(), 8, 0x11, 9));
  EXPECT_EQ(0x11, m[7]);
}

TEST(Securec, StringFunctions) {
  char buf[8];
  EXPECT_EQ(EOK, strcpy_s(buf, sizeof buf, "abcdefg"));
  EXPECT_STREQ("abcdefg", buf);
  EXPECT_EQ(ERANGE, strcpy_s(buf, sizeof buf, "abcdefgh"));
  EXPECT_STREQ("", buf);
  EXPECT_EQ(EOK, strncpy_s(buf, sizeof buf, "abcdefgh", 3));
  EXPECT_STREQ("abc", buf);
  EXPECT_EQ(EOK, strcat_s(buf, sizeof buf, "de"));
  EXPECT_STREQ("abcde", buf);
  EXPECT_EQ(ERANGE, strcat_s(buf, sizeof buf, "xyz"));
  EXPECT_STREQ("", buf);
  EXPECT_EQ(EOK, strcpy_s(buf, sizeof buf, "ab"));
  EXPECT_EQ(EOK, strncat_s(buf, sizeof buf, "cdefghij", 4));
  EXPECT_STREQ("abcdef", buf);
  EXPECT_EQ(EINVAL, strcpy_s(buf, 0, "a"));
  EXPECT_EQ(EINVAL, strcpy_s(buf, sizeof buf, nullptr));
}

TEST(Securec, FormattedFunctions) {
  char buf[16];
  EXPECT_EQ(9, sprintf_s(buf, sizeof buf, "%s-%d", "abc", 12345));
  EXPECT_STREQ("abc-12345", buf);
  EXPECT_EQ(-1, sprintf_s(buf, 8, "%s", "123456789")) << "does not fit";
  EXPECT_STREQ("", buf);
  EXPECT_EQ(-1, snprintf_s(buf, sizeof buf, 4, "%s", "123456789")) << "truncated to count";
  EXPECT_STREQ("1234", buf);
  EXPECT_EQ(5, snprintf_s(buf, sizeof buf, sizeof buf - 1, "%05d", 42));
  EXPECT_STREQ("00042", buf);
}

}  // namespace
