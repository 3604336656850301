# ascendc.cmake for npurt's simulated NPU: builds Ascend C kernels with the host compiler.
#
#   include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)      # set_env.sh of the npurt package sets ASCENDC_CMAKE_DIR
#
#   ascendc_library(<name> STATIC|SHARED <sources>...)
#       A host library <name> for the mixed programming style: `kernel<<<blockDim, l2ctrl, stream>>>(args)`
#       in <sources> launches the kernel, and aclrtlaunch_<kernel>.h (on the library's include path)
#       declares aclrtlaunch_<kernel>(blockDim, stream, args...) / ACLRT_LAUNCH_KERNEL(kernel). The kernels
#       are compiled into a kernel binary embedded in the library and loaded on the first launch. Linking
#       <name> also links the npurt runtime (libascendcl.so) and adds the package's include directory and
#       <package>/lib64 as a link directory. `cmake --install` puts the library into
#       ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR} (lib, or lib64 where GNUInstallDirs says so) and its
#       aclrtlaunch_<kernel>.h headers into ${CMAKE_INSTALL_PREFIX}/include/<name>/, as CANN's module does.
#
#   ascendc_fatbin_library(<name> <sources>...)
#       A kernel binary for aclrtBinaryLoadFromFile: out/fatbin/<name>/<name>.o in the build directory, and
#       installed to ${CMAKE_INSTALL_PREFIX}/fatbin/<name>/<name>.o by `cmake --install`.
#
#   host_intf_pub
#       The INTERFACE target CANN's module defines for host programs (`target_link_libraries(main PRIVATE
#       host_intf_pub ascendcl ...)`): the package's include directory, <package>/lib64 as a link directory
#       (so `ascendcl`, `c_sec`... resolve by name), _GLIBCXX_USE_CXX11_ABI=0 and -fPIC.
#
#   ascendc_include_directories(<name> [PRIVATE|PUBLIC] <dirs>...)
#   ascendc_compile_definitions(<name> [PRIVATE|PUBLIC] <definitions>...)
#   ascendc_compile_options(<name> [PRIVATE|PUBLIC] <options>...)
#       Extra settings for compiling the kernels of <name>.
#
# A kernel binary is a host ELF shared object: the kernel sources compiled for this CPU (-O3, and
# -march=native unless NPURT_ASCENDC_MARCH says otherwise) with npurt's kernel_operator.h, plus a table of
# the kernels' names and parameters (include/npurt/kernel_abi.h). npurt_kernel_gen.py (beside this
# directory) finds the kernels and writes the generated sources at configure time; a kernel source edit
# re-runs the configure step. SOC_VERSION is accepted and ignored: the simulated device runs any kernel.
#
# Variables read: NPURT_ASCENDC_MARCH (default "native"; "" for the compiler's default), NPURT_ASCENDC_RUNTIME
# (the runtime library or target to link; default <package>/lib64/libascendcl.so), NPURT_ASCENDC_NO_INSTALL
# (no install rules for kernel libraries and fatbins; npurt's own tests and benchmarks set it).

include_guard(GLOBAL)

# Cache entries (internal): the functions below may be called from any directory of the project.
# REALPATH: the module is also reached through the links where CANN keeps it (<P>/compiler/tikcpp/ascendc_kernel_cmake,
# <P>/tools/tikcpp/ascendc_kernel_cmake, <P>/tikcpp/ascendc_kernel_cmake); the package root is found from the real file.
get_filename_component(_root "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
get_filename_component(_root "${_root}/.." ABSOLUTE)
set(_NPURT_ASCENDC_ROOT "${_root}" CACHE INTERNAL "npurt ascendc toolchain root (<pkg>/tools/ascendc)")
get_filename_component(_root "${_NPURT_ASCENDC_ROOT}/../.." ABSOLUTE)
set(_NPURT_PACKAGE_ROOT "${_root}" CACHE INTERNAL "npurt package root")
set(_NPURT_ASCENDC_GEN "${_NPURT_ASCENDC_ROOT}/npurt_kernel_gen.py" CACHE INTERNAL "")
set(_NPURT_ASCENDC_INCLUDE "${_NPURT_ASCENDC_ROOT}/include" CACHE INTERNAL "")
unset(_root)

if(NOT CMAKE_CXX_COMPILER_LOADED)
  enable_language(CXX)
endif()

find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  set(_NPURT_ASCENDC_PYTHON "${Python3_EXECUTABLE}" CACHE INTERNAL "")
else()
  find_program(_NPURT_ASCENDC_PYTHON NAMES python3 python)
  if(NOT _NPURT_ASCENDC_PYTHON)
    message(FATAL_ERROR "ascendc.cmake: Python 3 is needed to build kernels (python3 not found)")
  endif()
endif()

# A cache variable: this file is included once per build (include_guard), and the functions below are
# called from other directories too, where a plain variable set here would not be visible.
if(NOT DEFINED NPURT_ASCENDC_MARCH)
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag("-march=native" NPURT_ASCENDC_HAS_MARCH_NATIVE)
  if(NPURT_ASCENDC_HAS_MARCH_NATIVE)
    set(_npurt_ascendc_march "native")
  else()
    set(_npurt_ascendc_march "")
  endif()
  set(NPURT_ASCENDC_MARCH "${_npurt_ascendc_march}" CACHE STRING
      "-march= value for kernel sources compiled for the simulated NPU (empty: the compiler's default)")
endif()

# CANN's module defines host_intf_pub, and CANN's samples link their host programs against it (the kernel-launch
# samples: `target_link_libraries(ascendc_kernels_bbit PRIVATE host_intf_pub ascendc_kernels_npu ...)`). What they
# rely on is kept: the package's headers, <package>/lib64 as a link directory (libraries named bare, `ascendcl`,
# `c_sec`), the old libstdc++ ABI CANN's host libraries use, and -fPIC. CANN's warning, optimisation, -std=c++11 and
# hardening flags are left out: they change nothing a program needs, and -std=c++11 (placed after the program's
# own options) would override the -std=c++17 the samples ask for. A project that defines its own is left alone.
if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_include_directories(host_intf_pub INTERFACE "${_NPURT_PACKAGE_ROOT}/include")
  target_compile_definitions(host_intf_pub INTERFACE _GLIBCXX_USE_CXX11_ABI=0)
  target_compile_options(host_intf_pub INTERFACE -fPIC)
  # Only an installed package has lib64 (npurt's own build uses the module from the source tree).
  if(IS_DIRECTORY "${_NPURT_PACKAGE_ROOT}/lib64")
    target_link_directories(host_intf_pub INTERFACE "${_NPURT_PACKAGE_ROOT}/lib64")
  endif()
endif()

# The runtime a host kernel library links.
function(_npurt_ascendc_runtime out)
  if(NPURT_ASCENDC_RUNTIME)
    set(${out} "${NPURT_ASCENDC_RUNTIME}" PARENT_SCOPE)
  elseif(EXISTS "${_NPURT_PACKAGE_ROOT}/lib64/libascendcl.so")
    set(${out} "${_NPURT_PACKAGE_ROOT}/lib64/libascendcl.so" PARENT_SCOPE)
  elseif(ASCEND_CANN_PACKAGE_PATH)
    set(${out} "${ASCEND_CANN_PACKAGE_PATH}/lib64/libascendcl.so" PARENT_SCOPE)
  elseif(DEFINED ENV{ASCEND_CANN_PACKAGE_PATH})
    set(${out} "$ENV{ASCEND_CANN_PACKAGE_PATH}/lib64/libascendcl.so" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "ascendc.cmake: cannot find libascendcl.so (set NPURT_ASCENDC_RUNTIME)")
  endif()
endfunction()

# Runs the generator: writes <gen>/device, <gen>/host, <gen>/include and <gen>/outputs.cmake.
function(_npurt_ascendc_generate name mode gen image)
  set(sources ${ARGN})
  if(NOT sources)
    message(FATAL_ERROR "ascendc: ${name} has no kernel sources")
  endif()
  set(abs_sources)
  foreach(src IN LISTS sources)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      message(FATAL_ERROR "ascendc: kernel source ${src} of ${name} does not exist (${abs})")
    endif()
    list(APPEND abs_sources "${abs}")
  endforeach()
  set(cmd "${_NPURT_ASCENDC_PYTHON}" "${_NPURT_ASCENDC_GEN}" --name "${name}" --mode "${mode}" --out-dir "${gen}")
  if(image)
    list(APPEND cmd --image "${image}")
  endif()
  execute_process(COMMAND ${cmd} ${abs_sources} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ascendc: generating the kernels of ${name} failed:\n${out}${err}")
  endif()
  # Editing a kernel source (a kernel added, a signature changed) re-runs the generator.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${abs_sources} "${_NPURT_ASCENDC_GEN}")
  include("${gen}/outputs.cmake")
  # So do the headers the sources include with quotes (kernels, SyncAll calls and tiling structs in them).
  if(NPURT_GEN_INPUTS)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${NPURT_GEN_INPUTS})
  endif()
  set(_npurt_kernels ${NPURT_GEN_KERNELS} PARENT_SCOPE)
  set(_npurt_device_sources ${NPURT_GEN_DEVICE_SOURCES} PARENT_SCOPE)
  set(_npurt_host_sources ${NPURT_GEN_HOST_SOURCES} PARENT_SCOPE)
  set(source_dirs)
  foreach(abs IN LISTS abs_sources)
    get_filename_component(dir "${abs}" DIRECTORY)
    list(APPEND source_dirs "${dir}")
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)
  set(_npurt_source_dirs ${source_dirs} PARENT_SCOPE)
endfunction()

# Compile settings shared by the kernel binary and the host pass of a kernel library.
function(_npurt_ascendc_kernel_compile target source_dirs)
  # UNITY_BUILD OFF: every generated kernel file defines the same per-file helpers, so they never share a
  # translation unit, whatever CMAKE_UNITY_BUILD the project sets.
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
                        POSITION_INDEPENDENT_CODE ON UNITY_BUILD OFF)
  # Quote includes of the kernel sources ("kernel_ops.h") resolve next to the original files.
  target_include_directories(${target} PRIVATE ${source_dirs} "${_NPURT_ASCENDC_INCLUDE}"
                             "${_NPURT_PACKAGE_ROOT}/include")
  # In npurt's source tree the host SDK's headers (kernel_tiling/kernel_tiling.h, which lib/matmul_intf.h and
  # kernel_operator.h's library APIs read) are beside the kernel headers; a package has them in <package>/include.
  if(IS_DIRECTORY "${_NPURT_ASCENDC_ROOT}/host/include")
    target_include_directories(${target} PRIVATE "${_NPURT_ASCENDC_ROOT}/host/include")
  endif()
endfunction()

# The kernel binary (a MODULE: a shared object nobody links against).
function(_npurt_ascendc_binary target output_dir output_name prefix suffix source_dirs)
  add_library(${target} MODULE ${ARGN})
  _npurt_ascendc_kernel_compile(${target} "${source_dirs}")
  set_target_properties(${target} PROPERTIES OUTPUT_NAME "${output_name}" PREFIX "${prefix}" SUFFIX "${suffix}"
                        LIBRARY_OUTPUT_DIRECTORY "${output_dir}" CXX_VISIBILITY_PRESET hidden
                        VISIBILITY_INLINES_HIDDEN ON)
  target_compile_options(${target} PRIVATE -O3 $<$<BOOL:${NPURT_ASCENDC_MARCH}>:-march=${NPURT_ASCENDC_MARCH}>
                         -fno-math-errno)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
endfunction()

function(ascendc_library name type)
  if(NOT type STREQUAL "STATIC" AND NOT type STREQUAL "SHARED")
    message(FATAL_ERROR "ascendc_library(${name} ${type} ...): the type must be STATIC or SHARED")
  endif()
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/npurt_ascendc/${name}")
  set(image "${gen}/lib${name}_kernels.so")
  _npurt_ascendc_generate(${name} library "${gen}" "${image}" ${ARGN})
  _npurt_ascendc_binary(${name}_npurt_kernels "${gen}" "${name}_kernels" "lib" ".so" "${_npurt_source_dirs}"
                        ${_npurt_device_sources})

  add_library(${name} ${type} ${_npurt_host_sources})
  _npurt_ascendc_kernel_compile(${name} "${_npurt_source_dirs}")
  add_dependencies(${name} ${name}_npurt_kernels)
  set_source_files_properties("${gen}/host/npurt_embed.cpp" PROPERTIES OBJECT_DEPENDS "${image}")
  _npurt_ascendc_runtime(runtime)
  target_include_directories(${name} PUBLIC "${gen}/include" "${_NPURT_PACKAGE_ROOT}/include")
  target_link_libraries(${name} PUBLIC "${runtime}")
  # As CANN's kernel library: a program that links it may name the package's other libraries bare.
  if(IS_DIRECTORY "${_NPURT_PACKAGE_ROOT}/lib64")
    target_link_directories(${name} PUBLIC "${_NPURT_PACKAGE_ROOT}/lib64")
  endif()
  set_property(TARGET ${name} PROPERTY NPURT_ASCENDC_KERNEL_TARGET ${name}_npurt_kernels)
  set_property(TARGET ${name} PROPERTY NPURT_ASCENDC_KERNELS ${_npurt_kernels})
  # CANN's install rule, which the kernel-launch samples' run.sh relies on (out/lib on LD_LIBRARY_PATH, a host
  # program built elsewhere including out/include/<name>/aclrtlaunch_<k>.h). The kernel binary is embedded, so
  # the library is all there is to install. GNUInstallDirs also gives the samples' own install rules their
  # CMAKE_INSTALL_BINDIR/LIBDIR, which they take from CANN's module.
  if(NOT NPURT_ASCENDC_NO_INSTALL)
    include(GNUInstallDirs)
    install(TARGETS ${name} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
            RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    file(MAKE_DIRECTORY "${gen}/include")  # a library without kernels has no headers, and no folder for them
    install(DIRECTORY "${gen}/include/" DESTINATION include/${name} FILES_MATCHING PATTERN "aclrtlaunch_*.h")
  endif()
endfunction()

function(ascendc_fatbin_library name)
  set(gen "${CMAKE_CURRENT_BINARY_DIR}/npurt_ascendc/${name}")
  _npurt_ascendc_generate(${name} fatbin "${gen}" "" ${ARGN})
  _npurt_ascendc_binary(${name} "${CMAKE_BINARY_DIR}/out/fatbin/${name}" "${name}" "" ".o" "${_npurt_source_dirs}"
                        ${_npurt_device_sources})
  set_property(TARGET ${name} PROPERTY NPURT_ASCENDC_KERNEL_TARGET ${name})
  set_property(TARGET ${name} PROPERTY NPURT_ASCENDC_KERNELS ${_npurt_kernels})
  if(NOT NPURT_ASCENDC_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION fatbin/${name})
  endif()
endfunction()

# Settings applied to the kernel compilation of a library made by ascendc_library/ascendc_fatbin_library.
function(_npurt_ascendc_apply command name)
  get_property(kernel_target TARGET ${name} PROPERTY NPURT_ASCENDC_KERNEL_TARGET)
  if(NOT kernel_target)
    message(FATAL_ERROR "${command}: ${name} is not a library made by ascendc_library or ascendc_fatbin_library")
  endif()
  set(items ${ARGN})
  list(REMOVE_ITEM items PRIVATE PUBLIC INTERFACE)
  set(targets ${kernel_target})
  if(NOT kernel_target STREQUAL name)
    list(APPEND targets ${name})
  endif()
  foreach(t IN LISTS targets)
    if(command STREQUAL "ascendc_include_directories")
      target_include_directories(${t} PRIVATE ${items})
    elseif(command STREQUAL "ascendc_compile_definitions")
      target_compile_definitions(${t} PRIVATE ${items})
    else()
      target_compile_options(${t} PRIVATE ${items})
    endif()
  endforeach()
endfunction()

function(ascendc_include_directories name)
  _npurt_ascendc_apply(ascendc_include_directories ${name} ${ARGN})
endfunction()
function(ascendc_compile_definitions name)
  _npurt_ascendc_apply(ascendc_compile_definitions ${name} ${ARGN})
endfunction()
function(ascendc_compile_options name)
  _npurt_ascendc_apply(ascendc_compile_options ${name} ${ARGN})
endfunction()
