// The handle tags of objects the C API layer defines itself (profiling configs and stamps, operator handles,
// aclnn tensors, scalars, arrays and executors; base/handle.h).
#pragma once

#include "base/handle.h"

namespace npurt::handle_tags {

inline constexpr HandleTag kProfConfig{0x50464331};  // "PFC1"
inline constexpr HandleTag kProfStamp{0x50465331};  // "PFS1"
inline constexpr HandleTag kProfStepInfo{0x50464931};  // "PFI1"
inline constexpr HandleTag kProfSubscribeConfig{0x50464231};  // "PFB1"
inline constexpr HandleTag kOpHandle{0x4f504831};  // "OPH1"
inline constexpr HandleTag kNnTensor{0x4e4e5431};  // "NNT1"
inline constexpr HandleTag kNnScalar{0x4e4e5331};  // "NNS1"
inline constexpr HandleTag kNnArray{0x4e4e4131};  // "NNA1"
inline constexpr HandleTag kNnTensorList{0x4e4e4c31};  // "NNL1"
inline constexpr HandleTag kNnExecutor{0x4e4e5831};  // "NNX1"
inline constexpr HandleTag kMdlDesc{0x4d444431};  // "MDD1"
inline constexpr HandleTag kMdlDataset{0x4d445331};  // "MDS1"
inline constexpr HandleTag kMdlConfig{0x4d444331};  // "MDC1"
inline constexpr HandleTag kMdlExecConfig{0x4d444531};  // "MDE1"
inline constexpr HandleTag kDvppPic{0x44565031};  // "DVP1"
inline constexpr HandleTag kDvppBatch{0x44564231};  // "DVB1"
inline constexpr HandleTag kDvppRoi{0x44565231};  // "DVR1"
inline constexpr HandleTag kDvppResize{0x44565a31};  // "DVZ1"
inline constexpr HandleTag kDvppJpege{0x44564a31};  // "DVJ1"
inline constexpr HandleTag kDvppChannel{0x44564331};  // "DVC1"

// Every tag above (tests/unit/handle_tags_test.cc checks that no two tags of any layer share a value).
inline constexpr HandleTag kApiTags[] = {
    kProfConfig, kProfStamp, kProfStepInfo, kProfSubscribeConfig, kOpHandle,
    kNnTensor, kNnScalar, kNnArray, kNnTensorList, kNnExecutor,
    kMdlDesc, kMdlDataset, kMdlConfig, kMdlExecConfig,
    kDvppPic, kDvppBatch, kDvppRoi, kDvppResize, kDvppJpege, kDvppChannel,
};

}  // namespace npurt::handle_tags
