// The kernel assert macros (npurt_kernel/kernel_assert.h). No include guard: kernel_operator.h includes
// this at each inclusion, so that assert is the kernel's again after a <cassert> (which redefines assert
// whenever it is included) between two inclusions.
#undef assert
#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
#define assert(...) static_cast<void>(0)
#else
#define assert(...) ::AscendC::npurt_detail::AssertCheck(__FILE__, __LINE__, #__VA_ARGS__, __VA_ARGS__)
#endif
#define ascendc_assert(...) assert(__VA_ARGS__)
#define ASSERT(...) assert(__VA_ARGS__)
