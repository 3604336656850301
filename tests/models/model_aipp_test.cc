// Static AIPP (atc --insert_op_conf): aclmdlGetAippType, aclmdlGetFirstAippInfo, the two views of the image
// input (aclmdlGetInputDims / ...V2), and an execution on a random image against the reference.
#include <random>

#include "model_fixture.h"

namespace npurt::test {
namespace {

// Static AIPP (atc --insert_op_conf) as the runtime reports and runs it.
TEST_F(ModelTest, StaticAippInputsAreReportedAndRun) {
  const std::string path = WriteTemp("aipp_relu.om", MakeAippRelu());
  uint32_t id = 0;
  ASSERT_EQ(aclmdlLoadFromFile(path.c_str(), &id), ACL_SUCCESS) << Message();
  aclmdlInputAippType type = ACL_DATA_WITHOUT_AIPP;
  size_t attached = 0;
  ASSERT_EQ(aclmdlGetAippType(id, 0, &type, &attached), ACL_SUCCESS);
  EXPECT_EQ(type, ACL_DATA_WITH_STATIC_AIPP);
  EXPECT_EQ(attached, static_cast<size_t>(ACL_INVALID_NODE_INDEX));
  EXPECT_EQ(aclmdlGetAippType(id, 1, &type, &attached), ACL_ERROR_INVALID_PARAM);
  aclAippInfo info;
  ASSERT_EQ(aclmdlGetFirstAippInfo(id, 0, &info), ACL_SUCCESS) << Message();
  EXPECT_EQ(info.inputFormat, ACL_RGB888_U8);
  EXPECT_EQ(info.srcImageSizeW, 8);
  EXPECT_EQ(info.srcImageSizeH, 8);
  EXPECT_EQ(info.cropSwitch, 1);
  EXPECT_EQ(info.loadStartPosW, 1);
  EXPECT_EQ(info.cropSizeW, 6);
  EXPECT_EQ(info.paddingSwitch, 1);
  EXPECT_EQ(info.leftPaddingSize, 1);
  EXPECT_EQ(info.rightPaddingSize, 1);
  EXPECT_EQ(info.meanChn1, 20);
  EXPECT_FLOAT_EQ(info.varReciChn2, 0.125f);
  EXPECT_EQ(info.cscSwitch, 0);
  EXPECT_EQ(info.srcFormat, ACL_FORMAT_NCHW);
  EXPECT_EQ(info.srcDatatype, ACL_FLOAT);
  EXPECT_EQ(info.shapeCount, 1u);
  EXPECT_EQ(info.outDims[0].aippOutdims.dimCount, 4u);
  EXPECT_EQ(info.outDims[0].aippOutSize, 3u * 8 * 8 * 4);
  aclmdlDesc* desc = aclmdlCreateDesc();
  ASSERT_EQ(aclmdlGetDesc(desc, id), ACL_SUCCESS);
  EXPECT_EQ(aclmdlGetInputSizeByIndex(desc, 0), 8u * 8 * 3);
  EXPECT_EQ(aclmdlGetInputDataType(desc, 0), ACL_UINT8);
  aclmdlIODims v1{}, v2{};
  ASSERT_EQ(aclmdlGetInputDims(desc, 0, &v1), ACL_SUCCESS);
  ASSERT_EQ(aclmdlGetInputDimsV2(desc, 0, &v2), ACL_SUCCESS);
  EXPECT_EQ(std::vector<int64_t>(v1.dims, v1.dims + v1.dimCount), (std::vector<int64_t>{1, 3, 8, 8}));
  EXPECT_EQ(std::vector<int64_t>(v2.dims, v2.dims + v2.dimCount), (std::vector<int64_t>{1, 8, 8, 3}));
  // Executed on a random image against the reference.
  std::mt19937 gen(5);
  std::vector<uint8_t> image(8 * 8 * 3);
  for (auto& v : image) v = static_cast<uint8_t>(gen());
  void* in = Device(image.size());
  ASSERT_EQ(aclrtMemcpy(in, image.size(), image.data(), image.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  void* out = Device(3 * 8 * 8 * 4);
  aclmdlDataset* ins = Dataset({in}, {image.size()});
  aclmdlDataset* outs = Dataset({out}, {3 * 8 * 8 * 4});
  ASSERT_EQ(aclmdlExecute(id, ins, outs), ACL_SUCCESS) << Message();
  ExpectNear(Download(out, 3 * 8 * 8), AippReluReference(image), "y");
  aclmdlDestroyDesc(desc);
  ReleaseDatasets();
  EXPECT_EQ(aclmdlUnload(id), ACL_SUCCESS);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace npurt::test
