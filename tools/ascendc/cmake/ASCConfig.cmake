# find_package(ASC): CANN's Ascend C language package, for npurt's simulated NPU.
#
#   find_package(ASC REQUIRED)                   # CMAKE_PREFIX_PATH holds <P>/compiler/tikcpp/ascendc_kernel_cmake
#   project(demo LANGUAGES ASC CXX)              #   (set_env.sh puts it there), or HINTS that directory
#   add_executable(demo main.asc)                # kernels, host code and main() in one source
#   target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=dav-2201>)
#   target_link_libraries(demo PRIVATE tiling_api platform)
#
# Makes the languages ASC (.asc) and CCE (.cce, -xcce) known to CMake: their compiler is the package's driver
# <P>/bin/npurt-ascc (as <P>/compiler/ccec_compiler/bin/bisheng and ccec), which compiles the kernels for the
# sim (npurt_kernel_gen.py) and the host code with the host compiler, and links programs with the runtime.
# CMAKE_ASC_ARCHITECTURES, --npu-arch and CMAKE_ASC_RUN_MODE (npu, cpu, sim) are accepted: all run on the sim,
# which is dav-2201 (Atlas A2). dav-3510 (Ascend 950) is refused here: its programming model is not simulated.
# Sets ASC_FOUND, and ASCEND_CANN_PACKAGE_PATH / ASCEND_HOME_PATH (when unset) to the package; <P>/lib64 becomes a
# link directory of the calling directory.
get_filename_component(_npurt_asc_dir "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
get_filename_component(_npurt_asc_root "${_npurt_asc_dir}/../../.." ABSOLUTE)
if(NOT "${_npurt_asc_dir}" IN_LIST CMAKE_MODULE_PATH)
  list(APPEND CMAKE_MODULE_PATH "${_npurt_asc_dir}")
endif()
if(NOT ASCEND_CANN_PACKAGE_PATH)
  set(ASCEND_CANN_PACKAGE_PATH "${_npurt_asc_root}")
endif()
if(NOT ASCEND_HOME_PATH)
  set(ASCEND_HOME_PATH "${_npurt_asc_root}")
endif()
# Host code outside kernel-language sources (a C++ main() calling ACL, tiling) names the package's libraries
# bare (`ascendcl`, `tiling_api`, `platform`), as with CANN's toolkit; the driver adds this when it links.
link_directories("${_npurt_asc_root}/lib64")
foreach(_npurt_arch IN LISTS CMAKE_ASC_ARCHITECTURES)
  if(_npurt_arch MATCHES "^dav-(c|m)?35")
    message(FATAL_ERROR "CMAKE_ASC_ARCHITECTURES=${_npurt_arch} (Ascend 950PR/950DT) is not simulated: npurt's "
                        "simulated NPU is dav-2201 (Atlas A2), without Ascend 950's register-based vector functions "
                        "(__simd_vf__, MicroAPI), SIMT or tensor API. Kernels written for dav-2201 build with "
                        "-DCMAKE_ASC_ARCHITECTURES=dav-2201 (docs/kernels.md).")
  endif()
endforeach()
unset(_npurt_arch)
# CANN's custom-operator package commands (an op project's op_host / op_kernel built into an OPP package with
# generated aclnn headers) are not provided: each stops the configure with the reason instead of CMake's
# "Unknown CMake command".
foreach(_npurt_op_cmd npu_op_package npu_op_package_add npu_op_library npu_op_kernel_library npu_op_kernel_sources
                      npu_op_code_gen npu_op_device_tiling_library)
  cmake_language(EVAL CODE "
    function(${_npurt_op_cmd})
      message(FATAL_ERROR \"${_npurt_op_cmd}(): custom-operator packages (op_host / op_kernel projects built into an \"
                          \"OPP package with generated aclnn headers) are not supported by npurt. Build the kernel \"
                          \"with the kernel-launch (ascendc_library) or single-source (LANGUAGES ASC) style and launch \"
                          \"it with <<<>>> or aclrtLaunchKernel (docs/kernels.md).\")
    endfunction()")
endforeach()
unset(_npurt_op_cmd)
set(ASC_FOUND TRUE)
unset(_npurt_asc_dir)
unset(_npurt_asc_root)
