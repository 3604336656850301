/* libc_sec for npurt: the bounds-checked functions of include/securec.h. Error numbers follow CANN's
 * libc_sec: EINVAL for a null pointer or a zero/huge destMax, ERANGE when the data does not fit, EOVERLAP
 * (54) for overlapping copies; destinations are cleared on error where libc_sec clears them. */
#include "securec.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NPURT_EOVERLAP 54
#define EXPORT __attribute__((visibility("default")))

static int BadDest(const void* dest, size_t destMax, size_t limit) {
  return dest == NULL || destMax == 0 || destMax > limit;
}

static int Overlap(const void* a, size_t an, const void* b, size_t bn) {
  const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
  return (x < y) ? (y - x < an) : (x - y < bn);
}

EXPORT errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (BadDest(dest, destMax, SECUREC_MEM_MAX_LEN)) return EINVAL;
  if (count > destMax) {
    memset(dest, c, destMax);
    return ERANGE;
  }
  memset(dest, c, count);
  return EOK;
}

/* The checks memcpy_s and memmove_s share: EOK when the copy may go ahead, else the error (dest cleared). */
static errno_t CheckCopy(void* dest, size_t destMax, const void* src, size_t count) {
  if (BadDest(dest, destMax, SECUREC_MEM_MAX_LEN)) return EINVAL;
  const errno_t e = src == NULL ? EINVAL : count > destMax ? ERANGE : EOK;
  if (e != EOK) memset(dest, 0, destMax);
  return e;
}

EXPORT errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  const errno_t e = CheckCopy(dest, destMax, src, count);
  if (e != EOK) return e;
  if (count != 0 && Overlap(dest, count, src, count)) {
    memset(dest, 0, destMax);
    return NPURT_EOVERLAP;
  }
  memcpy(dest, src, count);
  return EOK;
}

EXPORT errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  const errno_t e = CheckCopy(dest, destMax, src, count);
  if (e == EOK) memmove(dest, src, count);
  return e;
}

/* Copies at most `count` characters of src (all of it when count is SIZE_MAX) after dest[offset]. */
static errno_t CopyString(char* dest, size_t destMax, size_t offset, const char* src, size_t count) {
  const size_t len = strnlen(src, count);
  if (offset + len >= destMax) {
    dest[0] = '\0';
    return ERANGE;
  }
  if (Overlap(dest, destMax, src, len + 1)) {
    dest[0] = '\0';
    return NPURT_EOVERLAP;
  }
  memcpy(dest + offset, src, len);
  dest[offset + len] = '\0';
  return EOK;
}

EXPORT errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncpy_s(strDest, destMax, strSrc, SIZE_MAX);
}

EXPORT errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (BadDest(strDest, destMax, SECUREC_STRING_MAX_LEN)) return EINVAL;
  if (strSrc == NULL) {
    strDest[0] = '\0';
    return EINVAL;
  }
  return CopyString(strDest, destMax, 0, strSrc, count);
}

EXPORT errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  if (BadDest(strDest, destMax, SECUREC_STRING_MAX_LEN)) return EINVAL;
  if (strSrc == NULL) {
    strDest[0] = '\0';
    return EINVAL;
  }
  const size_t used = strnlen(strDest, destMax);
  if (used == destMax) {
    strDest[0] = '\0';
    return EINVAL;
  }
  return CopyString(strDest, destMax, used, strSrc, count);
}

EXPORT errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncat_s(strDest, destMax, strSrc, SIZE_MAX);
}

EXPORT int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (BadDest(strDest, destMax, SECUREC_STRING_MAX_LEN) || format == NULL) {
    if (strDest != NULL && destMax != 0 && destMax <= SECUREC_STRING_MAX_LEN) strDest[0] = '\0';
    return -1;
  }
  /* count < destMax: truncate to count characters (and say so with -1); otherwise the whole result must fit. */
  const int truncating = count < destMax;
  const size_t room = truncating ? count + 1 : destMax;
  const int n = vsnprintf(strDest, room, format, argList);
  if (n < 0) {
    strDest[0] = '\0';
    return -1;
  }
  if ((size_t)n >= room) {
    if (truncating) return -1; /* truncated as asked; strDest holds the first count characters */
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

EXPORT int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  return vsnprintf_s(strDest, destMax, destMax, format, argList);
}

EXPORT int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = vsprintf_s(strDest, destMax, format, ap);
  va_end(ap);
  return n;
}

EXPORT int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = vsnprintf_s(strDest, destMax, count, format, ap);
  va_end(ap);
  return n;
}
