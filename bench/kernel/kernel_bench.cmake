# bench/kernel: the kernels are built with npurt's own ascendc.cmake (issue 3).
set(NPURT_ASCENDC_RUNTIME ascendcl)
set(NPURT_ASCENDC_NO_INSTALL ON)
include(${PROJECT_SOURCE_DIR}/tools/ascendc/cmake/ascendc.cmake)
ascendc_fatbin_library(npurt_bench_kernels ${CMAKE_CURRENT_SOURCE_DIR}/kernel/kernels/kernel_bench_kernels.cpp)
add_dependencies(bench_kernel npurt_bench_kernels)
target_compile_definitions(bench_kernel PRIVATE NPURT_BENCH_KERNELS="$<TARGET_FILE:npurt_bench_kernels>")
