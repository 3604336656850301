// Labels and stream switching: a switch skips forward to the label its device-side index selects
// (the index may be produced by earlier tasks of the stream); out-of-range indexes fail the stream;
// backward jumps, model streams and every bad argument are refused; stream activation and
// aclrtSwitchStream on plain streams; aclrtStreamStop.
#include <cstring>
#include <vector>

#include "test_util.h"

namespace cts {
namespace {

using LabelTest = CtsTest;
using StreamSwitchTest = CtsTest;

constexpr size_t kBuf = 256;

// Builds: switch(index) ; fill a ; label0 ; fill b ; label1 ; fill c — and returns which of a, b, c ran.
struct Program {
  DevBuf a{kBuf}, b{kBuf}, c{kBuf};
  DevBuf index{64};
  aclrtLabel labels[2] = {nullptr, nullptr};
  aclrtLabelList list = nullptr;

  Program() {
    for (DevBuf* buf : {&a, &b, &c}) EXPECT_ACL_OK(buf->Upload(RandomBytes(kBuf, 3).data(), kBuf));
    for (aclrtLabel& l : labels) EXPECT_ACL_OK(aclrtCreateLabel(&l));
    EXPECT_ACL_OK(aclrtCreateLabelList(labels, 2, &list));
  }
  ~Program() {
    EXPECT_ACL_OK(aclrtDestroyLabelList(list));
    for (aclrtLabel l : labels) EXPECT_ACL_OK(aclrtDestroyLabel(l));
  }
  void Submit(aclrtStream s) {
    EXPECT_ACL_OK(aclrtSwitchLabelByIndex(index.get(), 2, list, s));
    EXPECT_ACL_OK(aclrtMemsetAsync(a.get(), kBuf, 0x11, kBuf, s));
    EXPECT_ACL_OK(aclrtSetLabel(labels[0], s));
    EXPECT_ACL_OK(aclrtMemsetAsync(b.get(), kBuf, 0x22, kBuf, s));
    EXPECT_ACL_OK(aclrtSetLabel(labels[1], s));
    EXPECT_ACL_OK(aclrtMemsetAsync(c.get(), kBuf, 0x33, kBuf, s));
  }
  std::string Ran() const {
    std::string r;
    if (AllBytesAre(a.Read().data(), kBuf, 0x11)) r += 'a';
    if (AllBytesAre(b.Read().data(), kBuf, 0x22)) r += 'b';
    if (AllBytesAre(c.Read().data(), kBuf, 0x33)) r += 'c';
    return r;
  }
};

TEST_F(LabelTest, SwitchSkipsForwardToTheIndexedLabel) {
  for (uint32_t idx : {0u, 1u}) {
    Stream s;
    Program p;
    ASSERT_ACL_OK(p.index.Upload(&idx, sizeof idx));
    p.Submit(s);
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    EXPECT_EQ(idx == 0 ? "bc" : "c", p.Ran()) << "index " << idx;
  }
}

TEST_F(LabelTest, IndexIsReadWhenTheSwitchExecutes) {
  Stream s;
  Program p;
  const uint32_t zero = 0, one = 1;
  ASSERT_ACL_OK(p.index.Upload(&zero, sizeof zero));
  PinnedBuf src(sizeof one);
  std::memcpy(src.get(), &one, sizeof one);
  // An earlier task of the stream writes the index the switch reads.
  ASSERT_ACL_OK(aclrtMemcpyAsync(p.index.get(), sizeof one, src.get(), sizeof one, ACL_MEMCPY_HOST_TO_DEVICE, s));
  p.Submit(s);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ("c", p.Ran());
}

TEST_F(LabelTest, IndexOutOfRangeFailsTheStream) {
  Stream s;
  Program p;
  const uint32_t idx = 2;
  ASSERT_ACL_OK(p.index.Upload(&idx, sizeof idx));
  p.Submit(s);
  EXPECT_ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtSynchronizeStream(s));
  EXPECT_EQ("abc", p.Ran()) << "a failed switch jumps nowhere";
}

TEST_F(LabelTest, BadInputs) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateLabel(nullptr));
  aclrtLabel label = nullptr;
  ASSERT_ACL_OK(aclrtCreateLabel(&label));
  aclrtLabelList list = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateLabelList(&label, 0, &list));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateLabelList(nullptr, 1, &list));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateLabelList(&label, 1, nullptr));
  aclrtLabel stale = nullptr;
  ASSERT_ACL_OK(aclrtCreateLabel(&stale));
  ASSERT_ACL_OK(aclrtDestroyLabel(stale));
  EXPECT_BAD_HANDLE(aclrtCreateLabelList(&stale, 1, &list));
  EXPECT_BAD_HANDLE(aclrtSetLabel(stale, nullptr));
  EXPECT_BAD_HANDLE(aclrtDestroyLabel(stale));
  ASSERT_ACL_OK(aclrtCreateLabelList(&label, 1, &list));
  DevBuf index(64);
  const uint32_t zero = 0;
  ASSERT_ACL_OK(index.Upload(&zero, sizeof zero));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSwitchLabelByIndex(index.get(), 0, list, nullptr)) << "maxValue 0";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSwitchLabelByIndex(index.get(), 2, list, nullptr)) << "past the list";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSwitchLabelByIndex(nullptr, 1, list, nullptr));
  uint32_t host_index = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSwitchLabelByIndex(&host_index, 1, list, nullptr)) << "host memory";
  EXPECT_BAD_HANDLE(aclrtSwitchLabelByIndex(index.get(), 1, nullptr, nullptr));
  ASSERT_ACL_OK(aclrtSetLabel(label, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetLabel(label, nullptr)) << "a label is set once";
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSwitchLabelByIndex(index.get(), 1, list, nullptr))
      << "a backward jump needs a model";
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtDestroyLabelList(list));
  EXPECT_BAD_HANDLE(aclrtDestroyLabelList(list));
  EXPECT_ACL_OK(aclrtDestroyLabel(label));
}

TEST_F(StreamSwitchTest, ActiveStreamOnPlainStreams) {
  Stream a, b;
  EXPECT_ACL_OK(aclrtActiveStream(a, b));
  EXPECT_ACL_OK(aclrtSynchronizeStream(b));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtActiveStream(a, a)) << "a stream cannot activate itself";
  Stream model(0, ACL_STREAM_PERSISTENT);
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtActiveStream(model, b));
  EXPECT_BAD_HANDLE(aclrtActiveStream(reinterpret_cast<aclrtStream>(&a), b));
}

TEST_F(StreamSwitchTest, SwitchStreamValidatesItsOperands) {
  Stream s, t, f;
  DevBuf left(64), right(64);
  const int64_t l = 5, r = 7;
  ASSERT_ACL_OK(left.Upload(&l, sizeof l));
  ASSERT_ACL_OK(right.Upload(&r, sizeof r));
  for (int cond = ACL_RT_EQUAL; cond <= ACL_RT_LESS_OR_EQUAL; ++cond) {
    EXPECT_ACL_OK(aclrtSwitchStream(left.get(), static_cast<aclrtCondition>(cond), right.get(), ACL_RT_SWITCH_INT64,
                                    t, f, s));
  }
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSwitchStream(left.get(), static_cast<aclrtCondition>(6), right.get(),
                                                            ACL_RT_SWITCH_INT32, t, f, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSwitchStream(left.get(), ACL_RT_EQUAL, right.get(),
                                                            static_cast<aclrtCompareDataType>(2), t, f, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtSwitchStream(nullptr, ACL_RT_EQUAL, right.get(), ACL_RT_SWITCH_INT32, t, f, s));
  int64_t host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtSwitchStream(left.get(), ACL_RT_EQUAL, &host, ACL_RT_SWITCH_INT32, t, f, s));
  Stream model(0, ACL_STREAM_PERSISTENT);
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 aclrtSwitchStream(left.get(), ACL_RT_EQUAL, right.get(), ACL_RT_SWITCH_INT32, model, f, s));
}

TEST_F(StreamSwitchTest, StreamStopDiscardsQueuedWork) {
  Stream s;
  DevBuf buf(kBuf);
  ASSERT_ACL_OK(buf.Upload(RandomBytes(kBuf, 4).data(), kBuf));
  DeviceGate gate;
  ASSERT_TRUE(gate.ok());
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), kBuf, 0x5a, kBuf, s));
  ASSERT_ACL_OK(aclrtStreamStop(s));
  ASSERT_ACL_OK(gate.Open());
  EXPECT_FALSE(AllBytesAre(buf.Read().data(), kBuf, 0x5a)) << "the queued fill was discarded";
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), kBuf, 0x5b, kBuf, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_TRUE(AllBytesAre(buf.Read().data(), kBuf, 0x5b)) << "the stream stays usable";
  EXPECT_BAD_HANDLE(aclrtStreamStop(reinterpret_cast<aclrtStream>(&buf)));
}

}  // namespace
}  // namespace cts
