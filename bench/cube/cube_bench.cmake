# bench/cube: the Matmul kernel is built with npurt's ascendc.cmake (a user's ascendc_library); the baseline
# calls oneDNN directly; the tiling comes from the host SDK.
set(NPURT_ASCENDC_RUNTIME ascendcl)
set(NPURT_ASCENDC_NO_INSTALL ON)
include(${PROJECT_SOURCE_DIR}/tools/ascendc/cmake/ascendc.cmake)
ascendc_library(npurt_bench_cube_kernels STATIC ${CMAKE_CURRENT_SOURCE_DIR}/cube/kernels/cube_bench_kernels.cpp)
target_include_directories(bench_cube PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/cube/kernels)
target_link_libraries(bench_cube PRIVATE npurt_bench_cube_kernels npurt_tiling_api npurt_tiling_platform DNNL::dnnl)
