// Regression tests for what fuzzing found (tests/fuzz, docs/fuzzing.md): by the fuzz targets, or while
// writing their seeds and reading the parsers they cover. Each of them failed before its fix: the process
// crashed, or bad input was accepted. The corrupt kernel binaries are made
// from the fuzz template (tests/fuzz/seeds/kernel_template.so, a minimal valid kernel binary).
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl_op_compiler.h"
#include "acl/acl_prof.h"
#include "test_util.h"

namespace cts {
namespace {

std::vector<uint8_t> KernelTemplate() {
  std::ifstream in(NPURT_CTS_FUZZ_SEEDS "/kernel_template.so", std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing " NPURT_CTS_FUZZ_SEEDS "/kernel_template.so";
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Offset in `img` of the first occurrence of the u32 words `words` (little-endian), or npos.
size_t FindWords(const std::vector<uint8_t>& img, std::initializer_list<uint32_t> words) {
  std::vector<uint8_t> pattern;
  for (uint32_t w : words) {
    for (int i = 0; i < 4; ++i) pattern.push_back(static_cast<uint8_t>(w >> (8 * i)));
  }
  auto it = std::search(img.begin(), img.end(), pattern.begin(), pattern.end());
  return it == img.end() ? std::string::npos : static_cast<size_t>(it - img.begin());
}

void PutWord(std::vector<uint8_t>* img, size_t at, uint32_t value) {
  ASSERT_LE(at + 4, img->size());
  std::memcpy(img->data() + at, &value, sizeof value);
}

// The kernel table: magic "NKTB", ABI version 1, kernel count, ...
size_t TableOffset(const std::vector<uint8_t>& img) { return FindWords(img, {0x4e4b5442u, 1u}); }

// Loads `img` from memory; on success unloads it again and returns ACL_SUCCESS.
aclError LoadAndUnload(const std::vector<uint8_t>& img) {
  aclrtBinHandle bin = nullptr;
  const aclError rc = aclrtBinaryLoadFromData(img.data(), img.size(), nullptr, &bin);
  if (rc == ACL_SUCCESS) {
    EXPECT_ACL_OK(aclrtBinaryUnLoad(bin));
  }
  return rc;
}

std::string RecentText() {
  const char* m = aclGetRecentErrMsg();
  return m != nullptr ? m : "";
}

using FuzzFindingsTest = CtsTest;

TEST_F(FuzzFindingsTest, KernelTemplateLoadsAndListsItsKernels) {
  const std::vector<uint8_t> img = KernelTemplate();
  ASSERT_NE(std::string::npos, TableOffset(img));
  aclrtBinHandle bin = nullptr;
  ASSERT_ACL_OK(aclrtBinaryLoadFromData(img.data(), img.size(), nullptr, &bin));
  aclrtFuncHandle add = nullptr;
  ASSERT_ACL_OK(aclrtBinaryGetFunction(bin, "seed_add", &add));
  size_t params = 0, offset = 0, size = 0;
  EXPECT_ACL_OK(aclrtFunctionGetParamCount(add, &params));
  EXPECT_EQ(3u, params);
  EXPECT_ACL_OK(aclrtFunctionGetParamInfo(add, 2, &offset, &size));
  EXPECT_EQ(16u, offset);
  EXPECT_EQ(4u, size);
  aclrtFuncHandle empty = nullptr;
  EXPECT_ACL_OK(aclrtBinaryGetFunction(bin, "seed_empty", &empty));
  EXPECT_ACL_OK(aclrtBinaryUnLoad(bin));
}

// Found writing fuzz_kernel_binary's seeds (table_count_1000): the kernel count was trusted, and aclrtBinaryLoadFromData read descriptor
// pointers past the table's list (SIGSEGV).
TEST_F(FuzzFindingsTest, KernelTableCountingMoreKernelsThanItListsIsRejected) {
  for (uint32_t count : {1000u, 0xffffffffu}) {
    std::vector<uint8_t> img = KernelTemplate();
    const size_t table = TableOffset(img);
    ASSERT_NE(std::string::npos, table);
    PutWord(&img, table + 8, count);
    EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, LoadAndUnload(img)) << count << " kernels";
    EXPECT_NE(std::string::npos, RecentText().find("kernel table")) << count << " kernels";
  }
}

// Found writing fuzz_kernel_binary's seeds (table_param_offset_past_block): a parameter's offset and size
// were trusted, and a launch packs each
// argument at its offset into a block of args_size bytes (a heap overflow).
TEST_F(FuzzFindingsTest, KernelParameterPastItsArgumentBlockIsRejected) {
  std::vector<uint8_t> img = KernelTemplate();
  // seed_add's first parameter: offset 0, size 8, align 8, pointer.
  const size_t param = FindWords(img, {0u, 8u, 8u, 1u});
  ASSERT_NE(std::string::npos, param);
  PutWord(&img, param, 1000);
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, LoadAndUnload(img));
  EXPECT_NE(std::string::npos, RecentText().find("overruns")) << "the message names the overrun";
}

// Found writing fuzz_kernel_binary's seeds (truncated_*): a truncated image reached the dynamic loader, which maps segments past
// the end of the file and faults reading them (SIGSEGV / SIGBUS inside aclrtBinaryLoadFromData).
TEST_F(FuzzFindingsTest, TruncatedKernelImageIsRejected) {
  const std::vector<uint8_t> whole = KernelTemplate();
  const std::string dir = MakeTempDir("fuzz_kernel");
  ASSERT_FALSE(dir.empty());
  for (size_t len : {size_t{100}, size_t{700}, whole.size() / 2, size_t{1400}}) {
    const std::vector<uint8_t> img(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(len));
    EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, LoadAndUnload(img)) << len << " bytes";
    EXPECT_NE(std::string::npos, RecentText().find("truncated")) << len << " bytes";
    const std::string path = dir + "/truncated.so";
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(img.data()), static_cast<std::streamsize>(img.size()));
    }
    aclrtBinHandle bin = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, aclrtBinaryLoadFromFile(path.c_str(), nullptr, &bin)) << len << " bytes";
    EXPECT_NE(std::string::npos, RecentText().find("truncated")) << len << " bytes, from a file";
  }
}

// Found by fuzz_kernel_binary (header mode): with a loadable segment's type overwritten, the dynamic
// section was no longer mapped and ld.so read it anyway (SIGSEGV in elf_dynamic_do_Rela).
TEST_F(FuzzFindingsTest, KernelImageWithInconsistentProgramHeadersIsRejected) {
  std::vector<uint8_t> img = KernelTemplate();
  ASSERT_GE(img.size(), size_t{64});
  uint64_t phoff = 0;
  uint16_t phnum = 0;
  std::memcpy(&phoff, img.data() + 32, sizeof phoff);
  std::memcpy(&phnum, img.data() + 56, sizeof phnum);
  int patched = 0;
  for (uint16_t i = 0, loads = 0; i < phnum; ++i) {
    uint32_t type = 0;
    std::memcpy(&type, img.data() + phoff + i * 56u, sizeof type);
    if (type == 1 && ++loads == 2) {  // the second PT_LOAD, which holds the dynamic section
      PutWord(&img, phoff + i * 56u, 0xffffffffu);
      ++patched;
    }
  }
  ASSERT_EQ(1, patched) << "the template has two loadable segments";
  EXPECT_ACL_ERR(ACL_ERROR_PARSE_FILE, LoadAndUnload(img));
  EXPECT_NE(std::string::npos, RecentText().find("dynamic segment")) << "the message names the dynamic segment";
}

// Found reading the parsers fuzz_prof_config covers: the text accessors of subscription records trusted the record's strings to
// be terminated. aclprofGetOpTypeLen counted within the field, aclprofGetOpType ran on into the next
// fields (and past the buffer), so the length it asked for disagreed with the one just reported. The
// record layout is npurt's (src/api/prof_objects.h): magic "OPR1", model id, flag, thread id, start,
// end, then the op type, op name and thread text fields.
TEST_F(FuzzFindingsTest, SubscriptionRecordTextStaysInsideItsField) {
  size_t record = 0;
  ASSERT_ACL_OK(aclprofGetOpDescSize(&record));
  ASSERT_GE(record, size_t{32 + ACL_PROF_MAX_OP_TYPE_LEN + ACL_PROF_MAX_OP_NAME_LEN});
  // One unterminated record, at an odd address, filled with text to its last byte.
  std::vector<char> storage(record + 1, 'T');
  char* rec = storage.data() + 1;
  const uint32_t magic = 0x4f505231u;
  std::memcpy(rec, &magic, sizeof magic);
  std::memset(rec + 4, 0, 28);
  size_t type_len = 0;
  ASSERT_ACL_OK(aclprofGetOpTypeLen(rec, record, 0, &type_len));
  EXPECT_EQ(size_t{ACL_PROF_MAX_OP_TYPE_LEN}, type_len);
  std::vector<char> type(type_len, '\0');
  ASSERT_ACL_OK(aclprofGetOpType(rec, record, 0, type.data(), type.size()));
  EXPECT_EQ(std::string(ACL_PROF_MAX_OP_TYPE_LEN - 1, 'T'), std::string(type.data()));
  size_t name_len = 0;
  ASSERT_ACL_OK(aclprofGetOpNameLen(rec, record, 0, &name_len));
  std::vector<char> name(name_len, '\0');
  ASSERT_ACL_OK(aclprofGetOpName(rec, record, 0, name.data(), name.size()));
  EXPECT_EQ(name_len - 1, std::strlen(name.data()));
  const char* thread = aclprofGetOpAttriValue(rec, record, 0, ACL_SUBSCRIBE_ATTRI_THREADID);
  ASSERT_NE(nullptr, thread);
  EXPECT_LT(std::strlen(thread), size_t{16}) << "the thread text must end inside its 16-byte field";
}

// Found by fuzz_op_compile and fuzz_prof_config (UBSan, -fsanitize=enum): an enum argument holding a
// value outside its enumerators (any int, from C) was loaded as the enum type to be range-checked, which
// is undefined behaviour in C++. Under the asan preset (UBSan aborts) the old code fails this test; the
// documented answer is ACL_ERROR_INVALID_PARAM with a message.
TEST_F(FuzzFindingsTest, OutOfRangeEnumArgumentsAreRejected) {
  volatile int bad = -1;
  const int64_t dims[] = {4};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 1, dims, ACL_FORMAT_ND);
  ASSERT_NE(nullptr, d);
  const aclTensorDesc* in[] = {d, d};
  const aclTensorDesc* out[] = {d};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCompile("Add", 2, in, 1, out, nullptr, static_cast<aclopEngineType>(bad),
                                                       ACL_COMPILE_SYS, nullptr));
  EXPECT_FALSE(RecentText().empty());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclopCompile("Add", 2, in, 1, out, nullptr, ACL_ENGINE_SYS,
                                                       static_cast<aclopCompileType>(bad), nullptr));
  EXPECT_FALSE(RecentText().empty());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclSetCompileopt(static_cast<aclCompileOpt>(bad), "x"));
  EXPECT_FALSE(RecentText().empty());
  aclDestroyTensorDesc(d);
  EXPECT_EQ(nullptr, aclprofCreateConfig(nullptr, 0, static_cast<aclprofAicoreMetrics>(bad), nullptr, 0));
  EXPECT_NE(std::string::npos, RecentText().find("aicoreMetrics"));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclprofSetConfig(static_cast<aclprofConfigType>(bad), "1", 1));
  EXPECT_NE(std::string::npos, RecentText().find("configType"));
}

// Found by fuzz_op_compile (UBSan: signed integer overflow in the element count): the product of a
// descriptor's dims overflowed int64_t, so a huge shape could wrap to a small element and byte count that
// a small buffer satisfies. Counts now saturate, and operators refuse tensors beyond 2^48 bytes.
TEST_F(FuzzFindingsTest, HugeShapesSaturateAndOperatorsRefuseThem) {
  const int64_t dims[] = {int64_t{1} << 40, int64_t{1} << 40, 3};
  aclTensorDesc* d = aclCreateTensorDesc(ACL_FLOAT, 3, dims, ACL_FORMAT_ND);
  ASSERT_NE(nullptr, d);
  EXPECT_GE(aclGetTensorDescElementCount(d), size_t{1} << 62) << "the element count wrapped";
  EXPECT_EQ(SIZE_MAX, aclGetTensorDescSize(d)) << "the byte count wrapped";
  const aclTensorDesc* in[] = {d, d};
  const aclTensorDesc* out[] = {d};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclopCompile("Add", 2, in, 1, out, nullptr, ACL_ENGINE_SYS, ACL_COMPILE_SYS, nullptr));
  EXPECT_NE(std::string::npos, RecentText().find("more than")) << "the message names the limit";
  aclDestroyTensorDesc(d);
}

// Found by fuzz_op_compile (UBSan: null pointer passed to memcpy): an empty tensor may come without a
// buffer, and the copy kernels (Concat/Split, Cast to the same type, Reshape, Slice, Gather) passed its
// null address to memcpy for 0 bytes, which is undefined. Under the asan preset the old code fails.
TEST_F(FuzzFindingsTest, EmptyTensorWithoutBufferIsConcatenated) {
  const int64_t full_dims[] = {2, 3};
  const int64_t empty_dims[] = {0, 3};
  aclTensorDesc* full = aclCreateTensorDesc(ACL_FLOAT, 2, full_dims, ACL_FORMAT_ND);
  aclTensorDesc* empty = aclCreateTensorDesc(ACL_FLOAT, 2, empty_dims, ACL_FORMAT_ND);
  ASSERT_NE(nullptr, full);
  ASSERT_NE(nullptr, empty);
  const std::vector<uint8_t> data = RandomBytes(6 * sizeof(float), 14);
  std::vector<float> x(6);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 1.0f + static_cast<float>(data[i]) / 16.0f;
  DevBuf in(sizeof(float) * 6), out(sizeof(float) * 6);
  ASSERT_ACL_OK(in.Upload(x.data(), sizeof(float) * 6));
  aclDataBuffer* b_in = aclCreateDataBuffer(in.get(), sizeof(float) * 6);
  aclDataBuffer* b_empty = aclCreateDataBuffer(nullptr, 0);
  aclDataBuffer* b_out = aclCreateDataBuffer(out.get(), sizeof(float) * 6);
  const aclTensorDesc* in_desc[] = {full, empty};
  const aclTensorDesc* out_desc[] = {full};
  const aclDataBuffer* inputs[] = {b_in, b_empty};
  aclDataBuffer* outputs[] = {b_out};
  ASSERT_ACL_OK(aclopCompileAndExecute("Concat", 2, in_desc, inputs, 1, out_desc, outputs, nullptr, ACL_ENGINE_SYS,
                                       ACL_COMPILE_SYS, nullptr, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  std::vector<float> y(6);
  ASSERT_ACL_OK(out.Download(y.data(), sizeof(float) * 6));
  EXPECT_EQ(x, y);
  aclDestroyDataBuffer(b_in);
  aclDestroyDataBuffer(b_empty);
  aclDestroyDataBuffer(b_out);
  aclDestroyTensorDesc(full);
  aclDestroyTensorDesc(empty);
}

using FuzzFindingsInitTest = CtsNoDeviceTest;

// Found reading the parser fuzz_init_config covers (seed big_numbers.json): integers of the aclInit config were read with nlohmann's get<>(), which
// casts a float out of range (undefined behaviour, UBSan: float-cast-overflow) and wraps negatives, and
// had none of the bounds the same settings have as environment variables; such configs were accepted.
TEST_F(FuzzFindingsInitTest, InitRejectsOutOfRangeAndNonIntegerSettings) {
  const char* const kBad[] = {
      R"({"npurt": {"stream_limit": 1e300}})",
      R"({"npurt": {"stream_limit": -1}})",
      R"({"npurt": {"stream_limit": 2.5}})",
      R"({"npurt": {"sim": {"memory_mb": 18446744073709551615}}})",
      R"({"npurt": {"sim": {"device_count": 100000}}})",
      R"({"npurt": {"sim": {"aicore_count": -3}}})",
      R"({"defaultDevice": {"default_device": 1e300}})",
  };
  const std::string dir = MakeTempDir("fuzz_init");
  ASSERT_FALSE(dir.empty());
  const std::string path = dir + "/acl.json";
  for (const char* text : kBad) {
    {
      std::ofstream out(path, std::ios::trunc);
      out << text;
    }
    ASSERT_ACL_OK(aclFinalize());
    const aclError rc = aclInit(path.c_str());
    const std::string msg = RecentText();
    if (rc == ACL_SUCCESS) {
      ADD_FAILURE() << "aclInit accepted " << text;
      continue;  // still initialised
    }
    EXPECT_EQ(ACL_ERROR_FILE_ATTR_INVALID, rc) << text;
    EXPECT_NE(std::string::npos, msg.find("aclInit config")) << text << ": " << msg;
    ASSERT_ACL_OK(aclInit(nullptr));
  }
}

}  // namespace
}  // namespace cts
