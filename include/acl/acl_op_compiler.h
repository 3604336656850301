// The single-operator compiler (libacl_op_compiler.so): compile an operator ahead of execution, or
// compile and run it in one call, and the compile options.
//
// In npurt "compiling" an operator validates its descriptors and attributes and builds its executable
// form (the oneDNN primitive with its chosen layouts, or the tiling of an npurt kernel). The result is
// kept in an LRU cache keyed by operator type, data types, formats, shapes and attributes, so steady
// state never recompiles. ACL_OP_COMPILER_CACHE_MODE ("enable" | "disable" | "force") and
// ACL_OP_COMPILER_CACHE_DIR are honoured; NPURT_OP_CACHE_CAPACITY sets the number of cached operators.
#ifndef NPURT_ACL_ACL_OP_COMPILER_H
#define NPURT_ACL_ACL_OP_COMPILER_H

#include "acl_base_rt.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclCompileType { ACL_COMPILE_SYS = 0, ACL_COMPILE_UNREGISTERED = 1 } aclopCompileType;

typedef enum {
    ACL_PRECISION_MODE = 0,
    ACL_AICORE_NUM = 1,
    ACL_AUTO_TUNE_MODE = 2,
    ACL_OP_SELECT_IMPL_MODE = 3,
    ACL_OPTYPELIST_FOR_IMPLMODE = 4,
    ACL_OP_DEBUG_LEVEL = 5,
    ACL_DEBUG_DIR = 6,
    ACL_OP_COMPILER_CACHE_MODE = 7,
    ACL_OP_COMPILER_CACHE_DIR = 8,
    ACL_OP_PERFORMANCE_MODE = 9,
    ACL_OP_JIT_COMPILE = 10,
    ACL_OP_DETERMINISTIC = 11,
    ACL_CUSTOMIZE_DTYPES = 12,
    ACL_OP_PRECISION_MODE = 13,
    ACL_ALLOW_HF32 = 14,
    ACL_PRECISION_MODE_V2 = 15,
    ACL_OP_DEBUG_OPTION = 16
} aclCompileOpt;

typedef enum aclCompileFlag { ACL_OP_COMPILE_DEFAULT = 0, ACL_OP_COMPILE_FUZZ = 1 } aclOpCompileFlag;

typedef struct aclGraphDumpOption aclGraphDumpOption;

static const int ACL_COMPILE_FLAG_BIN_SELECTOR = 1;

/* ==== [opcompiler] Operator compiler ==== */

// Compiles an operator into the cache (opPath is ignored for built-in operators).
ACL_FUNC_VISIBILITY aclError aclopCompile(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                                          int numOutputs, const aclTensorDesc* const outputDesc[],
                                          const aclopAttr* attr, aclopEngineType engineType,
                                          aclopCompileType compileFlag, const char* opPath);
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecute(const char* opType, int numInputs,
                                                    const aclTensorDesc* const inputDesc[],
                                                    const aclDataBuffer* const inputs[], int numOutputs,
                                                    const aclTensorDesc* const outputDesc[],
                                                    aclDataBuffer* const outputs[], const aclopAttr* attr,
                                                    aclopEngineType engineType, aclopCompileType compileFlag,
                                                    const char* opPath, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclopCompileAndExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[],
                                                      aclDataBuffer* inputs[], int numOutputs,
                                                      aclTensorDesc* outputDesc[], aclDataBuffer* outputs[],
                                                      aclopAttr* attr, aclopEngineType engineType,
                                                      aclopCompileType compileFlag, const char* opPath,
                                                      aclrtStream stream);
// Compile options are process-wide strings; aclGetCompileoptSize includes the terminating NUL.
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value);
ACL_FUNC_VISIBILITY size_t aclGetCompileoptSize(aclCompileOpt opt);
ACL_FUNC_VISIBILITY aclError aclGetCompileopt(aclCompileOpt opt, char* value, size_t length);
ACL_FUNC_VISIBILITY aclError aclopSetCompileFlag(aclOpCompileFlag flag);
// Graph dumps of single operators are not supported (ACL_ERROR_RT_FEATURE_NOT_SUPPORT).
ACL_FUNC_VISIBILITY aclError aclGenGraphAndDumpForOp(const char* opType, int numInputs,
                                                     const aclTensorDesc* const inputDesc[],
                                                     const aclDataBuffer* const inputs[], int numOutputs,
                                                     const aclTensorDesc* const outputDesc[],
                                                     aclDataBuffer* const outputs[], const aclopAttr* attr,
                                                     aclopEngineType engineType, const char* graphDumpPath,
                                                     const aclGraphDumpOption* graphDumpOpt);
ACL_FUNC_VISIBILITY aclGraphDumpOption* aclCreateGraphDumpOpt(void);
ACL_FUNC_VISIBILITY aclError aclDestroyGraphDumpOpt(const aclGraphDumpOption* graphDumpOpt);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_OP_COMPILER_H
