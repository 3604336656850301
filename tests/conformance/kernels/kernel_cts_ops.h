// Operation codes shared by the vector kernels (kernel_cts_vector.cpp) and kernel_vector_test.cc.
#pragma once

enum CtsVectorOp : unsigned {
  kOpAdd, kOpSub, kOpMul, kOpDiv, kOpMax, kOpMin,   // out = a op b
  kOpAdds, kOpMuls, kOpMaxs, kOpMins,               // out = a op scalar
  kOpExp, kOpLn, kOpAbs, kOpSqrt, kOpRelu, kOpReciprocal,  // out = op(a)
  kOpDuplicate,                                     // out = scalar
  kOpReduceSum, kOpReduceMax,                       // out[0] (and out[1] = index bits for ReduceMax)
  kOpCount
};

enum CtsCastTarget : unsigned { kCastToHalf, kCastToInt32, kCastToBf16 };
