# Kernel tests (issue 3): the suite's kernels are built with npurt's own ascendc.cmake, exactly as a user
# builds theirs, and the kernel_*_test.cc files are added to npurt_conformance.
#   npurt_cts_kernels   fatbin (out/fatbin/npurt_cts_kernels/npurt_cts_kernels.o) loaded with aclrtBinaryLoad*
#   npurt_cts_chevron   ascendc_library(STATIC): kernels launched with <<<>>> and aclrtlaunch_<kernel>
set(NPURT_ASCENDC_RUNTIME ascendcl)
set(NPURT_ASCENDC_NO_INSTALL ON)
include(${PROJECT_SOURCE_DIR}/tools/ascendc/cmake/ascendc.cmake)

set(_npurt_cts_kernel_dir ${CMAKE_CURRENT_SOURCE_DIR}/kernels)
ascendc_fatbin_library(npurt_cts_kernels
  ${_npurt_cts_kernel_dir}/kernel_cts_basic.cpp
  ${_npurt_cts_kernel_dir}/kernel_cts_faults.cpp
  ${_npurt_cts_kernel_dir}/kernel_cts_vector.cpp
  ${_npurt_cts_kernel_dir}/kernel_cts_race.cpp
  ${_npurt_cts_kernel_dir}/kernel_cts_coop.cpp
  ${_npurt_cts_kernel_dir}/kernel_cts_debug.cpp)
ascendc_library(npurt_cts_chevron STATIC ${_npurt_cts_kernel_dir}/kernel_cts_chevron.cpp)

target_sources(npurt_conformance PRIVATE
  kernel_test_util.cc
  kernel_binary_test.cc
  kernel_args_test.cc
  kernel_launch_test.cc
  kernel_records_test.cc
  kernel_dump_test.cc
  graph_kernel_test.cc
  kernel_fault_test.cc
  sync_copy_order_test.cc
  kernel_vector_test.cc
  kernel_coop_test.cc  # blocks working together: SyncAll, atomics (issue 18)
  kernel_debug_print_test.cc  # utils/debug/asc_printf.h, asc_dump.h, DumpTensor
  racecheck_test.cc)  # the race detector (issue 14): uses the suite's kernels
target_include_directories(npurt_conformance PRIVATE ${_npurt_cts_kernel_dir})
target_link_libraries(npurt_conformance PRIVATE npurt_cts_chevron)
add_dependencies(npurt_conformance npurt_cts_kernels)
target_compile_definitions(npurt_conformance PRIVATE NPURT_CTS_KERNELS="$<TARGET_FILE:npurt_cts_kernels>")
unset(_npurt_cts_kernel_dir)
