/*
 * securec.h: the bounds-checked C string and memory functions of CANN's libc_sec, as npurt provides them
 * (lib64/libc_sec.so). Each takes the size of its destination (destMax) and fails instead of writing past
 * it: the result is EOK (0) or an error number, and on error the destination is cleared where the
 * function's contract says so (an empty string for the string functions).
 */
#ifndef NPURT_SECUREC_H_
#define NPURT_SECUREC_H_

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef EOK
#define EOK 0
#endif
#ifndef NPURT_ERRNO_T_DEFINED
#define NPURT_ERRNO_T_DEFINED
typedef int errno_t;
#endif

/* The largest destMax accepted (CANN's SECUREC_MEM_MAX_LEN / SECUREC_STRING_MAX_LEN). */
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL

errno_t memset_s(void* dest, size_t destMax, int c, size_t count);
errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count);
errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc);
errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count);
/* The formatted forms return the number of characters written, or -1 on error (destination cleared). */
int sprintf_s(char* strDest, size_t destMax, const char* format, ...);
int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...);
int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList);
int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList);

#ifdef __cplusplus
}
#endif

#endif /* NPURT_SECUREC_H_ */
