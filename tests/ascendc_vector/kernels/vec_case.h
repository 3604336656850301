// One level-0 vector instruction to run (shared by the test kernels and the host tests): the operation,
// the element type, how the mask is given, the repeat and the strides. The kernel reads it from global
// memory, stages the operands through the unified buffer, runs the instruction once and writes dst back.
#pragma once

#include <cstdint>

enum VecDtype : uint32_t { kVecF16 = 0, kVecF32, kVecI16, kVecI32 };

enum VecOp : uint32_t {
  // binary (BinaryRepeatParams)
  kVecAdd = 0, kVecSub, kVecMul, kVecDiv, kVecMax, kVecMin, kVecAnd, kVecOr, kVecMulAddDst,
  // tensor and scalar (UnaryRepeatParams)
  kVecAdds, kVecMuls, kVecMaxs, kVecMins, kVecLeakyRelu,
  // unary (UnaryRepeatParams)
  kVecExp, kVecLn, kVecAbs, kVecSqrt, kVecRsqrt, kVecRelu, kVecReciprocal, kVecNot,
  // moves
  kVecDuplicate, kVecCopy,
  // fused (BinaryRepeatParams; FusedMulAdd* read dst too)
  kVecAddRelu, kVecSubRelu, kVecFusedMulAdd, kVecFusedMulAddRelu,
  kVecOpCount
};

// Reductions (vec_reduce kernel): the case's src0 strides, dst_rep = dstRepStride, order = ReduceOrder
// (WholeReduceMax/Min) or calIndex (ReduceMax/Min).
enum VecReduceOp : uint32_t {
  kRedWholeSum = 0, kRedWholeMax, kRedWholeMin, kRedBlockSum, kRedBlockMax, kRedBlockMin, kRedPairSum,
  kRedSum, kRedMax, kRedMin, kRedRepeatSum,
  kRedOpCount
};

// Compare / Select (vec_cmpsel kernel): order = CMPMODE, scalar = the scalar operand; Compare's dst is
// bits, Select's selMask is the sel buffer.
enum VecCmpSelOp : uint32_t {
  kCsCompare = 0, kCsCompareScalar, kCsCompares, kCsSelectTensor, kCsSelectScalar, kCsSelectSpr,
  kCsRegisterSelect,  // Compare into the CmpMask register (one repeat), then Select<T, VSEL_CMPMASK_SPR>
  kCsOpCount
};

// Level-0 Cast (vec_cast kernel): op = the conversion, order = the RoundMode; src0 strides for the source.
enum VecCastOp : uint32_t { kCastF32ToF16 = 0, kCastF16ToF32, kCastF32ToI32, kCastI32ToF32, kCastOpCount };

// How the instruction gets its mask.
enum VecMaskForm : uint32_t {
  kMaskBits = 0,        // mask[] argument (normal mode)
  kMaskContinuous,      // continuous `mask` argument (normal mode)
  kMaskRegister,        // SetVectorMask(mask[1], mask[0]) then isSetMask = false, MASK_PLACEHOLDER
  kMaskCounterRegister, // SetMaskCount + SetVectorMask<T, COUNTER>(count) then isSetMask = false
  kMaskCounterArg,      // SetMaskCount, then the count as the `mask` argument (isSetMask = true)
  kMaskCountForm,       // the count form of the API (count elements), where it has one
  kMaskCountFormRegister,  // the count form with isSetMask = false: SetMaskCount + SetVectorMask(count)
};

struct VecCase {
  uint32_t op;
  uint32_t dtype;
  uint32_t mask_form;
  uint32_t repeat;
  uint64_t mask[2];      // kMaskBits / kMaskRegister
  uint64_t count;        // kMaskContinuous: elements per repeat; counter forms: elements in all
  uint32_t dst_blk, src0_blk, src1_blk;  // block strides (32-byte blocks)
  uint32_t dst_rep, src0_rep, src1_rep;  // repeat strides (32-byte blocks)
  float scalar;
  uint32_t n_dst, n_src0, n_src1;  // elements of each buffer (staged whole)
  uint32_t order;
  uint32_t by_type;  // reductions: call the ReduceType-named API (ReduceRepeat / ReduceDataBlock / ReducePairElem)
};
