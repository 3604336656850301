// Runtime compilation of Ascend C kernels (libacl_rtc.so), CANN's counterpart of NVRTC.
//
// A program is kernel-language source text (with the headers it includes, given as text too). Compiling it
// produces a kernel binary that aclrtBinaryLoadFromData loads; its kernels are found with
// aclrtBinaryGetFunction by their names: an extern "C" kernel by its plain name, a template kernel's
// instantiation by the lowered name of the name expression that asked for it (aclrtcAddNameExpr,
// aclrtcGetLoweredName).
//
// On npurt the compiler is the package's npurt-ascc (<package>/bin/npurt-ascc, or $NPURT_ASCC), and the
// binary is a host shared object for the simulated NPU (dav-2201); docs/kernels.md, "Runtime compilation
// (aclrtc)", lists the options and what is refused.
//
// Thread safety: different programs may be used from different threads at once; one program must not be
// used by two threads at the same time (as in CANN). Every function validates its handle: a destroyed or
// foreign aclrtcProg returns ACL_ERROR_RTC_INVALID_PROG, and aclGetRecentErrMsg says what was wrong.
#ifndef NPURT_ACL_ACL_RT_COMPILE_H
#define NPURT_ACL_ACL_RT_COMPILE_H

#include <stddef.h>

#include "acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

// A runtime-compilation program (aclrtcCreateProg .. aclrtcDestroyProg).
typedef void* aclrtcProg;

// The codes the aclrtc functions return besides ACL_SUCCESS.
static const int ACL_ERROR_RTC_INVALID_PROG = 176000;  // a null, destroyed or foreign program handle
static const int ACL_ERROR_RTC_INVALID_INPUT = 176001;  // another argument is wrong (null pointer, count)
static const int ACL_ERROR_RTC_INVALID_OPTION = 176002;  // a compile option is refused (the log says why)
static const int ACL_ERROR_RTC_COMPILATION = 176003;  // the source does not compile (the log has the errors)
static const int ACL_ERROR_RTC_LINKING = 176004;
static const int ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION = 176005;  // AddNameExpr after CompileProg
static const int ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION = 176006;  // GetLoweredName before it
static const int ACL_ERROR_RTC_NAME_EXPR_NOT_VALID = 176007;  // a name expression that was not added
static const int ACL_ERROR_RTC_PROG_CREATION_FAILURE = 276000;
static const int ACL_ERROR_RTC_OUT_OF_MEMORY = 276001;
static const int ACL_ERROR_RTC_FAILURE = 576000;  // the compiler cannot be run (not found, temp dir ...)

/* ==== [rtc] Runtime compilation (aclrtc) ==== */

// Creates a program from `src` (copied). `name` names the source in diagnostics ("default_program" when
// null or empty). `headers[i]` is the text of the header that `#include "includeNames[i]"` reaches
// (numHeaders of each; both may be null when numHeaders is 0).
ACL_FUNC_VISIBILITY aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name, int numHeaders,
                                              const char** headers, const char** includeNames);

// Compiles the program with the bisheng options `options[0..numOptions)`: --npu-arch=dav-2201 (the
// default), -I<dir>, -D<macro>[=<value>], -U<macro>, -std=<std>, -O<n> are honoured, other CANN options are
// accepted and dropped. A failure leaves the compiler's messages in the log. A program compiles once.
ACL_FUNC_VISIBILITY aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options);

// Destroys the program and sets *prog to null; the names it handed out become invalid.
ACL_FUNC_VISIBILITY aclError aclrtcDestroyProg(aclrtcProg* prog);

// The compiled kernel binary: its size, then a copy into binData (binDataSizeRet bytes). Both need a
// successful aclrtcCompileProg.
ACL_FUNC_VISIBILITY aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet);
ACL_FUNC_VISIBILITY aclError aclrtcGetBinData(aclrtcProg prog, char* binData);

// Asks for the kernel `nameExpression` (a template kernel's instantiation, "ns::add_custom<float>", or a
// kernel's name) before compiling; its lowered name is then the name aclrtBinaryGetFunction finds it by,
// owned by the program.
ACL_FUNC_VISIBILITY aclError aclrtcAddNameExpr(aclrtcProg prog, const char* nameExpression);
ACL_FUNC_VISIBILITY aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression,
                                                  const char** loweredName);

// The compiler's output of the last aclrtcCompileProg (empty before), NUL-terminated: its size including
// the NUL, then a copy into log (logSizeRet bytes).
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet);
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLog(aclrtcProg prog, char* log);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_RT_COMPILE_H
