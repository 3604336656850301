// The handle tags of core's objects (contexts, streams, events, notifies, labels, kernels, memory, TDT,
// model instances): the HandleTag each is created with and looked up by (base/handle.h).
#pragma once

#include "base/handle.h"

namespace npurt::handle_tags {

inline constexpr HandleTag kContext{0x43545831};  // "CTX1"
inline constexpr HandleTag kStream{0x53544d31};  // "STM1"
inline constexpr HandleTag kEvent{0x45564e31};  // "EVN1"
inline constexpr HandleTag kNotify{0x4e544631};  // "NTF1"
inline constexpr HandleTag kCntNotify{0x434e5431};  // "CNT1"
inline constexpr HandleTag kLabel{0x4c424c31};  // "LBL1"
inline constexpr HandleTag kLabelList{0x4c424c32};  // "LBL2"
inline constexpr HandleTag kBinary{0x42494e31};  // "BIN1": a loaded kernel binary (aclrtBinHandle)
inline constexpr HandleTag kBinaryImage{0x42494d31};  // "BIM1": aclrtCreateBinary's wrapper (aclrtBinary)
inline constexpr HandleTag kFunction{0x46554e31};  // "FUN1": a kernel of a loaded binary (aclrtFuncHandle)
inline constexpr HandleTag kKernelArgs{0x4b415231};  // "KAR1": an argument list being built (aclrtArgsHandle)
inline constexpr HandleTag kPhysicalMem{0x50484d31};  // "PHM1": aclrtDrvMemHandle
inline constexpr HandleTag kMemPool{0x4d504c31};  // "MPL1": aclrtMemPool
inline constexpr HandleTag kAllocatorDesc{0x414c4431};  // "ALD1": aclrtAllocatorDesc
inline constexpr HandleTag kMbuf{0x4d425531};  // "MBU1": aclrtMbuf / acltdtBuf
inline constexpr HandleTag kTdtDataItem{0x54444931};  // "TDI1"
inline constexpr HandleTag kTdtDataset{0x54445431};  // "TDT1"
inline constexpr HandleTag kTdtChannel{0x54434831};  // "TCH1"
inline constexpr HandleTag kTdtQueueAttr{0x54514131};  // "TQA1"
inline constexpr HandleTag kTdtQueueRoute{0x54515231};  // "TQR1"
inline constexpr HandleTag kTdtRouteList{0x54524c31};  // "TRL1"
inline constexpr HandleTag kTdtRouteQuery{0x54525131};  // "TRQ1"
inline constexpr HandleTag kModelRI{0x4d524931};  // "MRI1": aclmdlRI
inline constexpr HandleTag kModelTask{0x4d525431};  // "MRT1": aclmdlRITask
inline constexpr HandleTag kModelTaskGroup{0x4d524731};  // "MRG1": aclrtTaskGrp
inline constexpr HandleTag kModelCond{0x4d524331};  // "MRC1": aclmdlRICondHandle
inline constexpr HandleTag kRtcProgram{0x52544331};  // "RTC1": aclrtcProg

// Every tag above (tests/unit/handle_tags_test.cc checks that no two tags of any layer share a value).
inline constexpr HandleTag kCoreTags[] = {
    kContext, kStream, kEvent, kNotify, kCntNotify,
    kLabel, kLabelList, kBinary, kBinaryImage, kFunction,
    kKernelArgs, kPhysicalMem, kMemPool, kAllocatorDesc, kMbuf,
    kTdtDataItem, kTdtDataset, kTdtChannel, kTdtQueueAttr, kTdtQueueRoute,
    kTdtRouteList, kTdtRouteQuery, kModelRI, kModelTask, kModelTaskGroup,
    kModelCond, kRtcProgram,
};

}  // namespace npurt::handle_tags
