// Hostile model files and wrong calls: each is refused with the documented code and a message, never a
// crash or a hang (truncations at every part boundary, random and flipped bytes, a CANN .om, an ONNX file,
// wrong datasets, stale ids).
#include <cstddef>
#include <random>

#include "model_fixture.h"
#include "models/om/om_crc.h"
#include "models/om/om_format.h"

namespace npurt::test {
namespace {

aclError LoadBytes(const std::vector<uint8_t>& bytes, uint32_t* id) {
  return aclmdlLoadFromMem(bytes.empty() ? "" : static_cast<const void*>(bytes.data()), bytes.size(), id);
}

TEST_F(ModelTest, MissingFileAndNullArguments) {
  uint32_t id = 0;
  EXPECT_EQ(aclmdlLoadFromFile("/nonexistent/model.om", &id), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  EXPECT_NE(Message().find("/nonexistent/model.om"), std::string::npos) << Message();
  EXPECT_EQ(aclmdlLoadFromFile(nullptr, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromFile(path_.c_str(), nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlLoadFromMem(model_.file.data(), 0, &id), ACL_ERROR_INVALID_PARAM);
  size_t a, b;
  EXPECT_EQ(aclmdlQuerySize("/nonexistent/model.om", &a, &b), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  aclmdlDesc* desc = aclmdlCreateDesc();
  EXPECT_EQ(aclmdlGetDescFromFile(desc, "/tmp"), ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID);
  EXPECT_EQ(aclmdlGetDesc(desc, 987654), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  aclmdlDestroyDesc(desc);
  EXPECT_EQ(aclmdlGetDesc(reinterpret_cast<aclmdlDesc*>(&a), 1), ACL_ERROR_INVALID_PARAM);  // a foreign pointer
  EXPECT_EQ(aclmdlGetNumInputs(nullptr), 0u);
  EXPECT_EQ(aclmdlDestroyDataset(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlAddDatasetBuffer(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(ModelTest, TruncatedFilesAreRefused) {
  std::vector<size_t> cuts = {0, 3, 10, 63, 64, 100, model_.file.size() / 2, model_.file.size() - 1};
  for (size_t cut : cuts) {
    std::vector<uint8_t> part(model_.file.begin(), model_.file.begin() + cut);
    uint32_t id = 0;
    const aclError rc = cut == 0 ? aclmdlLoadFromMem(model_.file.data(), 0, &id) : LoadBytes(part, &id);
    EXPECT_NE(rc, ACL_SUCCESS) << "cut at " << cut;
    if (cut >= 4) {
      EXPECT_FALSE(Message().empty()) << "cut at " << cut;
    }
    const std::string p = WriteTemp("truncated.om", part);
    size_t w, g;
    EXPECT_NE(aclmdlQuerySize(p.c_str(), &w, &g), ACL_SUCCESS) << "cut at " << cut;
    std::remove(p.c_str());
  }
}

TEST_F(ModelTest, FlippedAndRandomBytesAreRefused) {
  std::mt19937 gen(42);
  for (int i = 0; i < 200; ++i) {
    std::vector<uint8_t> bad = model_.file;
    const size_t at = std::uniform_int_distribution<size_t>(0, bad.size() - 1)(gen);
    bad[at] ^= static_cast<uint8_t>(1 + gen() % 255);
    uint32_t id = 0;
    const aclError rc = LoadBytes(bad, &id);
    if (rc == ACL_SUCCESS) {
      // Only padding between the parts may change without notice; the model must still run correctly.
      ASSERT_GT(at, 64u);
      ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    } else {
      EXPECT_FALSE(Message().empty());
    }
  }
  for (int i = 0; i < 50; ++i) {
    std::vector<uint8_t> noise(1 + gen() % 4096);
    for (auto& b : noise) b = static_cast<uint8_t>(gen());
    uint32_t id = 0;
    EXPECT_NE(LoadBytes(noise, &id), ACL_SUCCESS);
  }
}

// Mutations of a gear model's model part, with the checksums recomputed so that they reach the FlatBuffers
// verifier and the gear checks (om_reader.cc CheckGears): each is refused with a message, or loads and then
// runs its default gear or fails cleanly. Never a crash.
TEST_F(ModelTest, MutatedGearModelsNeverCrash) {
  constexpr int kMutations = 150;
  for (int kind = 1; kind <= 3; ++kind) {
    const GearConvRelu gm = MakeGearConvRelu(kind);
    om::FileHeader h;
    std::memcpy(&h, gm.file.data(), sizeof h);
    std::mt19937 gen(100 + static_cast<uint32_t>(kind));
    int loaded = 0;
    for (int i = 0; i < kMutations; ++i) {
      std::vector<uint8_t> bad = gm.file;
      const size_t at = h.model_offset + std::uniform_int_distribution<size_t>(0, h.model_size - 1)(gen);
      bad[at] ^= static_cast<uint8_t>(1 + gen() % 255);
      om::FileHeader fixed = h;
      fixed.model_crc32 = om::Crc32(bad.data() + h.model_offset, h.model_size);
      fixed.header_crc32 = om::Crc32(&fixed, offsetof(om::FileHeader, header_crc32));
      std::memcpy(bad.data(), &fixed, sizeof fixed);
      uint32_t id = 0;
      if (LoadBytes(bad, &id) != ACL_SUCCESS) {
        EXPECT_FALSE(Message().empty());
        continue;
      }
      ++loaded;
      aclmdlDesc* desc = aclmdlCreateDesc();
      ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
      std::vector<void*> in_ptrs, out_ptrs;
      std::vector<size_t> in_sizes, out_sizes;
      for (size_t k = 0; k < aclmdlGetNumInputs(desc); ++k) {
        in_sizes.push_back(aclmdlGetInputSizeByIndex(desc, k));
        in_ptrs.push_back(Device(in_sizes.back() == 0 ? 1 : in_sizes.back()));
      }
      for (size_t k = 0; k < aclmdlGetNumOutputs(desc); ++k) {
        out_sizes.push_back(aclmdlGetOutputSizeByIndex(desc, k));
        out_ptrs.push_back(Device(out_sizes.back() == 0 ? 1 : out_sizes.back()));
      }
      aclmdlDataset* in = Dataset(in_ptrs, in_sizes);
      aclmdlDataset* out = Dataset(out_ptrs, out_sizes);
      const aclError rc = aclmdlExecute(id, in, out);
      if (rc != ACL_SUCCESS) {
        EXPECT_FALSE(Message().empty());
      }
      aclmdlDestroyDesc(desc);
      ReleaseDatasets();
      ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
    }
    // Most mutations are caught (about a fifth change only names, padding or values nothing reads).
    EXPECT_LT(loaded, kMutations / 2) << "kind " << kind;
  }
}

TEST_F(ModelTest, CannModelAndOnnxFileAreNamed) {
  std::vector<uint8_t> cann(512, 0);
  std::memcpy(cann.data(), "IMOD", 4);
  uint32_t id = 0;
  EXPECT_EQ(LoadBytes(cann, &id), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_NE(Message().find("CANN OM1"), std::string::npos) << Message();
  // The start of an ONNX ModelProto: ir_version, producer_name "pytorch".
  std::vector<uint8_t> onnx = {0x08, 0x07, 0x12, 0x07, 'p', 'y', 't', 'o', 'r', 'c', 'h'};
  onnx.resize(300, 0);
  EXPECT_EQ(LoadBytes(onnx, &id), ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID);
  EXPECT_NE(Message().find("atc"), std::string::npos) << Message();
}

TEST_F(ModelTest, WrongDatasetsAreRefused) {
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path_.c_str(), &id), ACL_SUCCESS);
  void* x = Device(kBytesX);
  void* r = Device(kBytesR);
  void* o0 = Device(kBytesOut);
  void* o1 = Device(kBytesOut);
  aclmdlDataset* out = Dataset({o0, o1}, {kBytesOut, kBytesOut});
  // Too few inputs.
  EXPECT_EQ(aclmdlExecute(id, Dataset({x}, {kBytesX}), out), ACL_ERROR_GE_FAILURE);
  EXPECT_NE(Message().find("2 inputs"), std::string::npos) << Message();
  // An input smaller than the tensor, and one larger.
  EXPECT_EQ(aclmdlExecute(id, Dataset({x, r}, {kBytesX - 4, kBytesR}), out), ACL_ERROR_GE_PARAM_INVALID);
  EXPECT_EQ(aclmdlExecute(id, Dataset({x, r}, {kBytesX + 4, kBytesR}), out), ACL_ERROR_GE_FAILURE);
  // Host memory as an input.
  std::vector<float> host(ConvReluAdd::kX);
  EXPECT_EQ(aclmdlExecute(id, Dataset({host.data(), r}, {kBytesX, kBytesR}), out), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(Message().find("host memory"), std::string::npos) << Message();
  // A small output.
  EXPECT_EQ(aclmdlExecute(id, Dataset({x, r}, {kBytesX, kBytesR}), Dataset({o0, o1}, {kBytesOut, 16})),
            ACL_ERROR_GE_PARAM_INVALID);
  // Null and foreign datasets, a destroyed buffer.
  EXPECT_EQ(aclmdlExecute(id, nullptr, out), ACL_ERROR_INVALID_PARAM);
  int junk = 0;
  EXPECT_EQ(aclmdlExecute(id, reinterpret_cast<aclmdlDataset*>(&junk), out), ACL_ERROR_INVALID_PARAM);
  aclmdlDataset* in = aclmdlCreateDataset();
  aclDataBuffer* dead = aclCreateDataBuffer(x, kBytesX);
  aclmdlAddDatasetBuffer(in, dead);
  aclDataBuffer* live = aclCreateDataBuffer(r, kBytesR);
  aclmdlAddDatasetBuffer(in, live);
  aclDestroyDataBuffer(dead);
  EXPECT_EQ(aclmdlExecute(id, in, out), ACL_ERROR_INVALID_PARAM);
  aclmdlDestroyDataset(in);
  aclDestroyDataBuffer(live);
  // Gears on a static model.
  EXPECT_EQ(aclmdlSetDynamicBatchSize(id, out, 0, 2), ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID);
  EXPECT_NE(Message().find("--dynamic_batch_size"), std::string::npos) << Message();
  // A good execution still works after all of that.
  ASSERT_EQ(aclmdlExecute(id, Dataset({x, r}, {kBytesX, kBytesR}), out), ACL_SUCCESS) << Message();
  ASSERT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  // Use after unload.
  EXPECT_EQ(aclmdlExecute(id, Dataset({x, r}, {kBytesX, kBytesR}), out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
  EXPECT_NE(Message().find("unloaded"), std::string::npos) << Message();
  EXPECT_EQ(aclmdlExecuteAsync(id, Dataset({x, r}, {kBytesX, kBytesR}), out, stream_), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
}

TEST_F(ModelTest, DatasetTensorDescsAreCopies) {
  aclmdlDataset* d = Dataset({nullptr}, {0});
  int64_t dims[] = {1, 3, 8, 8};
  aclTensorDesc* t = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
  EXPECT_EQ(aclmdlSetDatasetTensorDesc(d, t, 1), ACL_ERROR_INVALID_PARAM);  // no slot 1
  ASSERT_EQ(aclmdlSetDatasetTensorDesc(d, t, 0), ACL_SUCCESS);
  aclDestroyTensorDesc(t);  // the dataset keeps its own copy
  aclTensorDesc* copy = aclmdlGetDatasetTensorDesc(d, 0);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(aclGetTensorDescNumDims(copy), 4u);
  EXPECT_EQ(aclGetTensorDescType(copy), ACL_FLOAT);
  ASSERT_EQ(aclmdlSetDatasetTensorDesc(d, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetDatasetTensorDesc(d, 0), nullptr);
  EXPECT_EQ(aclmdlGetDatasetNumBuffers(d), 1u);
  EXPECT_EQ(aclmdlGetDatasetBuffer(d, 1), nullptr);
}

}  // namespace
}  // namespace npurt::test
