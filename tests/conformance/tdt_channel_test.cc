// TDT channels (acl_tdt.h): data items, datasets, send/receive with capacity and timeouts, two handles of
// one name used from two threads, stop, clean, and every error path. Host threads only: the channel does
// not involve device tasks, so every backend runs these.
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "acl/acl_tdt.h"
#include "test_util.h"

namespace cts {
namespace {

using TdtChannelTest = CtsTest;

std::vector<float> RandomFloats(size_t n, uint64_t seed) {
  std::vector<uint8_t> bytes = RandomBytes(n, seed);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(bytes[i]) * 0.5f + 1.0f;
  return v;
}

// A one-item dataset over `values` (borrowed); DestroyAll frees both.
struct OneItemDataset {
  explicit OneItemDataset(std::vector<float>& values) {
    int64_t dims[] = {1, static_cast<int64_t>(values.size())};
    item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, values.data(), values.size() * 4);
    dataset = acltdtCreateDataset();
    if (item != nullptr && dataset != nullptr) (void)acltdtAddDataItem(dataset, item);
  }
  ~OneItemDataset() {
    if (item != nullptr) (void)acltdtDestroyDataItem(item);
    if (dataset != nullptr) (void)acltdtDestroyDataset(dataset);
  }
  acltdtDataItem* item = nullptr;
  acltdtDataset* dataset = nullptr;
};

std::vector<float> ReceivedFloats(acltdtDataset* ds) {
  acltdtDataItem* item = acltdtGetDataItem(ds, 0);
  if (item == nullptr) return {};
  const float* p = static_cast<const float*>(acltdtGetDataAddrFromItem(item));
  return std::vector<float>(p, p + acltdtGetDataSizeFromItem(item) / sizeof(float));
}

TEST_F(TdtChannelTest, DataItems) {
  std::vector<float> values = RandomFloats(6, 51);
  int64_t dims[] = {2, 3};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, values.data(), 24);
  ASSERT_NE(nullptr, item);
  EXPECT_EQ(ACL_TENSOR_DATA_TENSOR, acltdtGetTensorTypeFromItem(item));
  EXPECT_EQ(ACL_FLOAT, acltdtGetDataTypeFromItem(item));
  EXPECT_EQ(values.data(), acltdtGetDataAddrFromItem(item));
  EXPECT_EQ(24u, acltdtGetDataSizeFromItem(item));
  ASSERT_EQ(2u, acltdtGetDimNumFromItem(item));
  int64_t got[4] = {0, 0, 0, 0};
  ASSERT_ACL_OK(acltdtGetDimsFromItem(item, got, 4));
  EXPECT_EQ(2, got[0]);
  EXPECT_EQ(3, got[1]);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetDimsFromItem(item, got, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetDimsFromItem(item, nullptr, 2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetDimsFromItem(item, got, 0));
  size_t sliceNum = 9, sliceId = 9;
  ASSERT_ACL_OK(acltdtGetSliceInfoFromItem(item, &sliceNum, &sliceId));
  EXPECT_EQ(0u, sliceNum);
  EXPECT_EQ(0u, sliceId);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetSliceInfoFromItem(item, nullptr, &sliceId));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetSliceInfoFromItem(item, &sliceNum, nullptr));

  // A mark carries no payload.
  acltdtDataItem* eos = acltdtCreateDataItem(ACL_TENSOR_DATA_END_OF_SEQUENCE, nullptr, 0, ACL_FLOAT, nullptr, 0);
  ASSERT_NE(nullptr, eos);
  EXPECT_EQ(ACL_TENSOR_DATA_END_OF_SEQUENCE, acltdtGetTensorTypeFromItem(eos));
  EXPECT_EQ(ACL_DT_UNDEFINED, acltdtGetDataTypeFromItem(eos));
  EXPECT_EQ(0u, acltdtGetDimNumFromItem(eos));

  // Bad arguments.
  EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, nullptr, 2, ACL_FLOAT, values.data(), 24));
  EXPECT_NE(nullptr, aclGetRecentErrMsg());
  EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 0, ACL_FLOAT, values.data(), 24));
  EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_ABNORMAL, dims, 2, ACL_FLOAT, nullptr, 0));
  EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_UNDEFINED, nullptr, 0, ACL_FLOAT, nullptr, 0));
  EXPECT_EQ(nullptr, acltdtCreateDataItem(static_cast<acltdtTensorType>(17), nullptr, 0, ACL_FLOAT, nullptr, 0));
  EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 2, ACL_FLOAT, nullptr, 24));
  std::vector<int64_t> many(129, 1);
  EXPECT_EQ(nullptr, acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, many.data(), many.size(), ACL_FLOAT,
                                          values.data(), 24));
  EXPECT_EQ(ACL_TENSOR_DATA_UNDEFINED, acltdtGetTensorTypeFromItem(nullptr));
  EXPECT_EQ(ACL_DT_UNDEFINED, acltdtGetDataTypeFromItem(nullptr));
  EXPECT_EQ(nullptr, acltdtGetDataAddrFromItem(nullptr));
  EXPECT_EQ(0u, acltdtGetDataSizeFromItem(nullptr));
  EXPECT_EQ(0u, acltdtGetDimNumFromItem(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetSliceInfoFromItem(nullptr, &sliceNum, &sliceId));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtGetDimsFromItem(nullptr, got, 2));

  EXPECT_ACL_OK(acltdtDestroyDataItem(item));
  EXPECT_ACL_OK(acltdtDestroyDataItem(eos));
  EXPECT_BAD_HANDLE(acltdtDestroyDataItem(item));
  EXPECT_EQ(0u, acltdtGetDataSizeFromItem(item));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDestroyDataItem(nullptr));
}

TEST_F(TdtChannelTest, Datasets) {
  std::vector<float> a = RandomFloats(4, 52), b = RandomFloats(8, 53);
  int64_t dims[] = {4};
  acltdtDataItem* ia = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, a.data(), 16);
  acltdtDataItem* ib = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, b.data(), 32);
  acltdtDataset* ds = acltdtCreateDataset();
  ASSERT_NE(nullptr, ds);
  EXPECT_EQ(0u, acltdtGetDatasetSize(ds));
  ASSERT_ACL_OK(acltdtAddDataItem(ds, ia));
  ASSERT_ACL_OK(acltdtAddDataItem(ds, ib));
  EXPECT_EQ(2u, acltdtGetDatasetSize(ds));
  EXPECT_EQ(ia, acltdtGetDataItem(ds, 0));
  EXPECT_EQ(ib, acltdtGetDataItem(ds, 1));
  EXPECT_EQ(nullptr, acltdtGetDataItem(ds, 2));
  ASSERT_NE(nullptr, acltdtGetDatasetName(ds));
  EXPECT_STREQ("", acltdtGetDatasetName(ds));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtAddDataItem(ds, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtAddDataItem(nullptr, ia));
  EXPECT_EQ(0u, acltdtGetDatasetSize(nullptr));
  EXPECT_EQ(nullptr, acltdtGetDataItem(nullptr, 0));
  EXPECT_EQ(nullptr, acltdtGetDatasetName(nullptr));
  // An item destroyed while listed reads as missing.
  ASSERT_ACL_OK(acltdtDestroyDataItem(ib));
  EXPECT_EQ(nullptr, acltdtGetDataItem(ds, 1));
  EXPECT_ACL_OK(acltdtDestroyDataset(ds));
  EXPECT_BAD_HANDLE(acltdtDestroyDataset(ds));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDestroyDataset(nullptr));
  // The dataset does not own added items.
  EXPECT_EQ(16u, acltdtGetDataSizeFromItem(ia));
  EXPECT_ACL_OK(acltdtDestroyDataItem(ia));
}

TEST_F(TdtChannelTest, CapacityTimeoutsAndCopies) {
  acltdtChannelHandle* ch = acltdtCreateChannelWithCapacity(0, "cts_capacity", 2);
  ASSERT_NE(nullptr, ch);
  std::vector<float> v1 = RandomFloats(5, 54), v2 = RandomFloats(7, 55), v3 = RandomFloats(3, 56);
  OneItemDataset d1(v1), d2(v2), d3(v3);
  const std::vector<float> sent1 = v1;
  ASSERT_ACL_OK(acltdtSendTensor(ch, d1.dataset, 1000));
  v1[0] += 100.0f;  // the channel holds a copy
  ASSERT_ACL_OK(acltdtSendTensor(ch, d2.dataset, 0));
  size_t size = 0;
  ASSERT_ACL_OK(acltdtQueryChannelSize(ch, &size));
  EXPECT_EQ(2u, size);
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_FULL, acltdtSendTensor(ch, d3.dataset, 0));
  auto start = std::chrono::steady_clock::now();
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_FULL, acltdtSendTensor(ch, d3.dataset, 60));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));

  acltdtDataset* recv = acltdtCreateDataset();
  ASSERT_ACL_OK(acltdtReceiveTensor(ch, recv, 1000));
  EXPECT_EQ(sent1, ReceivedFloats(recv));
  acltdtDataItem* item = acltdtGetDataItem(recv, 0);
  ASSERT_NE(nullptr, item);
  EXPECT_EQ(2u, acltdtGetDimNumFromItem(item));
  EXPECT_EQ(ACL_FLOAT, acltdtGetDataTypeFromItem(item));
  EXPECT_NE(static_cast<void*>(v1.data()), acltdtGetDataAddrFromItem(item));
  // A received dataset takes no user items, and a second receive replaces its contents.
  EXPECT_ACL_ERR(ACL_ERROR_FEATURE_UNSUPPORTED, acltdtAddDataItem(recv, d3.item));
  ASSERT_ACL_OK(acltdtReceiveTensor(ch, recv, 0));
  EXPECT_EQ(v2, ReceivedFloats(recv));
  EXPECT_EQ(1u, acltdtGetDatasetSize(recv));
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtReceiveTensor(ch, recv, 0));
  start = std::chrono::steady_clock::now();
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_EMPTY, acltdtReceiveTensor(ch, recv, 40));
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(30));

  // Clean drops what waits.
  ASSERT_ACL_OK(acltdtSendTensor(ch, d3.dataset, 0));
  ASSERT_ACL_OK(acltdtCleanChannel(ch));
  ASSERT_ACL_OK(acltdtQueryChannelSize(ch, &size));
  EXPECT_EQ(0u, size);
  EXPECT_ACL_OK(acltdtDestroyDataset(recv));  // frees the received items too
  EXPECT_ACL_OK(acltdtStopChannel(ch));
  EXPECT_ACL_OK(acltdtDestroyChannel(ch));
}

TEST_F(TdtChannelTest, TwoHandlesOfOneNameAcrossThreads) {
  constexpr int kMessages = 64;
  acltdtChannelHandle* tx = acltdtCreateChannelWithCapacity(0, "cts_pipe", 3);
  acltdtChannelHandle* rx = acltdtCreateChannel(0, "cts_pipe");
  ASSERT_NE(nullptr, tx);
  ASSERT_NE(nullptr, rx);
  std::vector<std::vector<float>> sent(kMessages);
  for (int i = 0; i < kMessages; ++i) sent[i] = RandomFloats(1 + i % 9, 60 + i);
  std::atomic<int> failures{0};
  std::thread producer([&] {
    for (int i = 0; i < kMessages; ++i) {
      std::vector<float> v = sent[i];
      OneItemDataset d(v);
      if (acltdtSendTensor(tx, d.dataset, 10000) != ACL_SUCCESS) failures++;
    }
  });
  acltdtDataset* recv = acltdtCreateDataset();
  for (int i = 0; i < kMessages; ++i) {
    ASSERT_ACL_OK(acltdtReceiveTensor(rx, recv, 10000)) << i;
    EXPECT_EQ(sent[i], ReceivedFloats(recv)) << i;
  }
  producer.join();
  EXPECT_EQ(0, failures.load());
  // The first handle set the capacity.
  std::vector<float> v = RandomFloats(2, 57);
  OneItemDataset d(v);
  for (int i = 0; i < 3; ++i) ASSERT_ACL_OK(acltdtSendTensor(rx, d.dataset, 0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_QUEUE_FULL, acltdtSendTensor(rx, d.dataset, 0));
  EXPECT_ACL_OK(acltdtDestroyDataset(recv));
  EXPECT_ACL_OK(acltdtDestroyChannel(tx));
  EXPECT_ACL_OK(acltdtDestroyChannel(rx));
  // The last handle took the FIFO with it: a new channel of that name starts empty.
  acltdtChannelHandle* again = acltdtCreateChannel(0, "cts_pipe");
  size_t size = 1;
  ASSERT_ACL_OK(acltdtQueryChannelSize(again, &size));
  EXPECT_EQ(0u, size);
  EXPECT_ACL_OK(acltdtDestroyChannel(again));
}

TEST_F(TdtChannelTest, StopWakesWaiters) {
  acltdtChannelHandle* ch = acltdtCreateChannel(0, "cts_stop");
  ASSERT_NE(nullptr, ch);
  std::atomic<aclError> result{ACL_SUCCESS};
  std::atomic<bool> returned{false};
  std::thread waiter([&] {
    acltdtDataset* ds = acltdtCreateDataset();
    result = acltdtReceiveTensor(ch, ds, -1);
    returned = true;
    (void)acltdtDestroyDataset(ds);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(returned.load());
  ASSERT_ACL_OK(acltdtStopChannel(ch));
  waiter.join();
  EXPECT_NE(ACL_SUCCESS, result.load());
  std::vector<float> v = RandomFloats(2, 58);
  OneItemDataset d(v);
  EXPECT_NE(ACL_SUCCESS, acltdtSendTensor(ch, d.dataset, 0));
  EXPECT_NE(nullptr, aclGetRecentErrMsg());
  EXPECT_ACL_OK(acltdtDestroyChannel(ch));
}

TEST_F(TdtChannelTest, BadArguments) {
  EXPECT_EQ(nullptr, acltdtCreateChannel(0, nullptr));
  EXPECT_EQ(nullptr, acltdtCreateChannel(0, ""));
  EXPECT_EQ(nullptr, acltdtCreateChannel(4096, "cts_bad"));
  EXPECT_EQ(nullptr, acltdtCreateChannelWithCapacity(0, "cts_bad", 0));
  EXPECT_EQ(nullptr, acltdtCreateChannel(0, std::string(200, 'n').c_str()));
  acltdtChannelHandle* ch = acltdtCreateChannel(0, "cts_bad");
  ASSERT_NE(nullptr, ch);
  acltdtDataset* empty = acltdtCreateDataset();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSendTensor(ch, empty, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSendTensor(ch, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSendTensor(nullptr, empty, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSendTensor(ch, empty, -2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtReceiveTensor(ch, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtReceiveTensor(ch, empty, -5));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtQueryChannelSize(ch, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtQueryChannelSize(nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtStopChannel(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtCleanChannel(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtDestroyChannel(nullptr));
  // A dataset whose item was destroyed cannot be sent.
  std::vector<float> v = RandomFloats(3, 59);
  int64_t dims[] = {3};
  acltdtDataItem* item = acltdtCreateDataItem(ACL_TENSOR_DATA_TENSOR, dims, 1, ACL_FLOAT, v.data(), 12);
  ASSERT_ACL_OK(acltdtAddDataItem(empty, item));
  ASSERT_ACL_OK(acltdtDestroyDataItem(item));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, acltdtSendTensor(ch, empty, 0));
  EXPECT_ACL_OK(acltdtDestroyDataset(empty));
  EXPECT_ACL_OK(acltdtDestroyChannel(ch));
  EXPECT_BAD_HANDLE(acltdtDestroyChannel(ch));
  size_t size = 0;
  EXPECT_BAD_HANDLE(acltdtQueryChannelSize(ch, &size));
}

}  // namespace
}  // namespace cts
