# The kernel languages of npurt's package: ASC (CANN's single-source Ascend C, `.asc`) and CCE (the older
# `-xcce` language, `.cce`). Both compile with the package's driver, <P>/bin/npurt-ascc, reached by the names
# CANN gives its compilers (<P>/compiler/ccec_compiler/bin/bisheng and .../ccec): it runs npurt_kernel_gen.py
# (device pass -> kernel binary, host pass -> launches through the runtime) and the host compiler, and links
# the runtime into programs (docs/kernels.md, "Building kernels"). The CMake language files
# (CMakeDetermine<L>Compiler.cmake, CMake<L>Information.cmake, CMakeTest<L>Compiler.cmake, beside this file)
# call the macros below; `find_package(ASC)` (ASCConfig.cmake) puts this directory on CMAKE_MODULE_PATH.

get_filename_component(_npurt_kl_dir "${CMAKE_CURRENT_LIST_DIR}" REALPATH)
get_filename_component(_npurt_kl_root "${_npurt_kl_dir}/../../.." ABSOLUTE)

# CMakeDetermine<lang>Compiler.cmake: finds the driver and records the language's compiler file.
macro(_npurt_kernel_language_determine lang tool exts)
  if(NOT CMAKE_${lang}_COMPILER)
    find_program(CMAKE_${lang}_COMPILER NAMES ${tool} PATHS "${_npurt_kl_root}/compiler/ccec_compiler/bin"
                 NO_DEFAULT_PATH DOC "${lang} compiler (npurt's kernel-language driver)")
  endif()
  if(NOT CMAKE_${lang}_COMPILER)
    message(FATAL_ERROR "npurt: the ${lang} compiler (${tool}) is not in ${_npurt_kl_root}/compiler/ccec_compiler/bin. "
                        "Use the cmake modules of an installed npurt package (cmake --install, then "
                        "`source <package>/set_env.sh`), or build the kernels with ascendc_library() from "
                        "<package>/tools/ascendc/cmake/ascendc.cmake.")
  endif()
  mark_as_advanced(CMAKE_${lang}_COMPILER)
  if(NOT CMAKE_${lang}_SOURCE_FILE_EXTENSIONS)
    set(CMAKE_${lang}_SOURCE_FILE_EXTENSIONS ${exts})
  endif()
  set(CMAKE_${lang}_COMPILER_ENV_VAR "${lang}")
  # Programs with kernel-language sources link with the driver (it adds the runtime), ahead of C++.
  file(WRITE "${CMAKE_PLATFORM_INFO_DIR}/CMake${lang}Compiler.cmake"
       "set(CMAKE_${lang}_COMPILER \"${CMAKE_${lang}_COMPILER}\")\n"
       "set(CMAKE_${lang}_COMPILER_ID \"npurt\")\n"
       "set(CMAKE_${lang}_COMPILER_LOADED 1)\n"
       "set(CMAKE_${lang}_SOURCE_FILE_EXTENSIONS ${CMAKE_${lang}_SOURCE_FILE_EXTENSIONS})\n"
       "set(CMAKE_${lang}_LINKER_PREFERENCE 40)\n"
       "set(CMAKE_${lang}_LINKER_PREFERENCE_PROPAGATES 1)\n"
       "set(CMAKE_${lang}_OUTPUT_EXTENSION .o)\n"
       "set(CMAKE_${lang}_COMPILER_ENV_VAR \"${lang}\")\n")
endmacro()

# CMake<lang>Information.cmake: the rules. `xflag` names the language to the driver (-x asc, -xcce), so a
# source of another extension given the language (set_source_files_properties(... LANGUAGE ASC)) compiles
# as one.
macro(_npurt_kernel_language_information lang xflag)
  include(CMakeCommonLanguageInclude)
  set(CMAKE_${lang}_OUTPUT_EXTENSION .o)
  set(CMAKE_INCLUDE_FLAG_${lang} "-I")
  set(CMAKE_INCLUDE_SYSTEM_FLAG_${lang} "-isystem ")
  set(CMAKE_${lang}_COMPILE_OPTIONS_PIC "-fPIC")
  set(CMAKE_${lang}_COMPILE_OPTIONS_PIE "-fPIE")
  set(CMAKE_SHARED_LIBRARY_${lang}_FLAGS "-fPIC")
  set(CMAKE_SHARED_LIBRARY_CREATE_${lang}_FLAGS "-shared")
  set(CMAKE_SHARED_MODULE_CREATE_${lang}_FLAGS "-shared")
  set(CMAKE_SHARED_LIBRARY_SONAME_${lang}_FLAG "-Wl,-soname,")
  set(CMAKE_SHARED_LIBRARY_RUNTIME_${lang}_FLAG "-Wl,-rpath,")
  set(CMAKE_SHARED_LIBRARY_RUNTIME_${lang}_FLAG_SEP ":")
  set(CMAKE_EXECUTABLE_RUNTIME_${lang}_FLAG "-Wl,-rpath,")
  set(CMAKE_EXECUTABLE_RUNTIME_${lang}_FLAG_SEP ":")
  set(CMAKE_SHARED_LIBRARY_LINK_${lang}_FLAGS "")
  set(CMAKE_DEPFILE_FLAGS_${lang} "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
  set(CMAKE_${lang}_DEPFILE_FORMAT gcc)
  set(CMAKE_${lang}_DEPENDS_USE_COMPILER TRUE)
  set(CMAKE_${lang}_FLAGS_DEBUG_INIT "-O0 -g")
  set(CMAKE_${lang}_FLAGS_RELEASE_INIT "-O3 -DNDEBUG")
  set(CMAKE_${lang}_FLAGS_RELWITHDEBINFO_INIT "-O2 -g -DNDEBUG")
  set(CMAKE_${lang}_FLAGS_MINSIZEREL_INIT "-Os -DNDEBUG")
  set(CMAKE_${lang}_FLAGS_INIT "$ENV{${lang}FLAGS} ${CMAKE_${lang}_FLAGS_INIT}")
  # CMAKE_<lang>_STANDARD (C++17 when unset, which the driver defaults to).
  if(CMAKE_${lang}_STANDARD)
    string(APPEND CMAKE_${lang}_FLAGS_INIT " -std=c++${CMAKE_${lang}_STANDARD}")
  endif()
  cmake_initialize_per_config_variable(CMAKE_${lang}_FLAGS "Flags used by the ${lang} compiler")
  if(NOT CMAKE_AR)
    find_program(CMAKE_AR NAMES ar)
  endif()
  if(NOT CMAKE_RANLIB)
    find_program(CMAKE_RANLIB NAMES ranlib)
  endif()
  set(CMAKE_${lang}_COMPILE_OBJECT
      "<CMAKE_${lang}_COMPILER> <DEFINES> <INCLUDES> <FLAGS> -o <OBJECT> -c ${xflag} <SOURCE>")
  set(CMAKE_${lang}_LINK_EXECUTABLE
      "<CMAKE_${lang}_COMPILER> <FLAGS> <CMAKE_${lang}_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
  set(CMAKE_${lang}_CREATE_SHARED_LIBRARY
      "<CMAKE_${lang}_COMPILER> <CMAKE_SHARED_LIBRARY_${lang}_FLAGS> <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_${lang}_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
  set(CMAKE_${lang}_CREATE_SHARED_MODULE "${CMAKE_${lang}_CREATE_SHARED_LIBRARY}")
  set(CMAKE_${lang}_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_${lang}_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
  set(CMAKE_${lang}_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")
  # CANN's run modes (npu, cpu, sim) all run on npurt's simulated NPU.
  if(lang STREQUAL "ASC" AND CMAKE_ASC_RUN_MODE AND NOT CMAKE_ASC_RUN_MODE MATCHES "^(npu|cpu|sim)$")
    message(FATAL_ERROR "ASC: CMAKE_ASC_RUN_MODE='${CMAKE_ASC_RUN_MODE}' is not one of npu, cpu, sim")
  endif()
  set(CMAKE_${lang}_INFORMATION_LOADED 1)
endmacro()

# CMakeTest<lang>Compiler.cmake: the driver runs and finds its generator, headers and host compiler.
macro(_npurt_kernel_language_test lang)
  if(NOT CMAKE_${lang}_COMPILER_WORKS)
    execute_process(COMMAND "${CMAKE_${lang}_COMPILER}" --npurt-check RESULT_VARIABLE _npurt_rc
                    OUTPUT_VARIABLE _npurt_out ERROR_VARIABLE _npurt_err)
    if(NOT _npurt_rc EQUAL 0)
      message(FATAL_ERROR "The ${lang} compiler ${CMAKE_${lang}_COMPILER} does not work:\n${_npurt_out}${_npurt_err}")
    endif()
    message(STATUS "Check for working ${lang} compiler: ${CMAKE_${lang}_COMPILER} (npurt) - works")
    set(CMAKE_${lang}_COMPILER_WORKS TRUE CACHE INTERNAL "")
  endif()
endmacro()
