# NpurtPackage: `cmake --install <build> --prefix <P>` lays out a CANN-style package at <P>, so that ACL
# programs build against it exactly as they build against a real CANN toolkit (see docs/packaging.md):
#
#   <P>/include/acl/**            public headers (every *.h under include/ of the source tree)
#   <P>/lib64/libascendcl.so      the runtime
#   <P>/lib64/libacl_rt.so        ELF filters of libascendcl.so (DT_FILTER), RUNPATH $ORIGIN, so they find
#   <P>/lib64/libacl_rt_impl.so   libascendcl.so beside them without LD_LIBRARY_PATH; likewise every other
#   <P>/lib64/lib<name>.so        shared library src/ defines (libacl_cblas.so, libmsprofiler.so, ...)
#   <P>/lib64/stub/lib*.so        -> ../lib*.so (classic samples link from .../runtime/lib64/stub)
#   <P>/runtime/{include,lib64}   -> ../include, ../lib64 (classic DDK_PATH layout)
#   <P>/devlib                    -> lib64 (the newest samples link from ${ASCEND_HOME_PATH}/devlib)
#   <P>/compiler/{include,lib64}  -> ../include, ../lib64 (op-compiler samples)
#   <P>/opp/                      empty operator-package root (ASCEND_OPP_PATH)
#   <P>/set_env.sh                `source` it: ASCEND_CANN_PACKAGE_PATH, ASCEND_HOME_PATH, LD_LIBRARY_PATH, ...
#   <P>/bin/setenv.bash           the same, under the name the official example run.sh scripts source
#   <P>/share/npurt/version.info  package version (also linked as <P>/runtime/version.info)
#
# The runtime libraries, headers and the user tools (bin/: atc, msame, msprof, npu-smi, ...) are installed;
# tests and benchmarks stay in the build tree.
# Symbolic links and the generated set_env.sh are made at install time (install(CODE)), so the layout is
# right for whatever prefix `cmake --install --prefix` or DESTDIR chooses, and they are recorded in
# install_manifest.txt like every other installed file.

set(NPURT_PACKAGE_LIBDIR lib64)
set(_npurt_pkg_dir ${CMAKE_CURRENT_LIST_DIR}/package)

# --- libraries ----------------------------------------------------------------------------------------------
# The package ships every shared library defined under src/: libascendcl.so and its filters (libacl_rt.so,
# libacl_rt_impl.so and whichever other CANN library names src/CMakeLists.txt adds), so a new filter needs
# no change here. Static helper libraries and anything defined under tests/ or bench/ stay out.
function(_npurt_shared_libraries_in dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  set(libs)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "SHARED_LIBRARY")
      list(APPEND libs ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _npurt_shared_libraries_in(${sub} sublibs)
    list(APPEND libs ${sublibs})
  endforeach()
  set(${out} ${libs} PARENT_SCOPE)
endfunction()
_npurt_shared_libraries_in(${PROJECT_SOURCE_DIR}/src NPURT_PACKAGE_LIBS)
foreach(_lib ascendcl acl_rt acl_rt_impl)
  if(NOT _lib IN_LIST NPURT_PACKAGE_LIBS)
    message(FATAL_ERROR "NpurtPackage: shared library target '${_lib}' is not defined in src/")
  endif()
endforeach()
message(STATUS "npurt package libraries: ${NPURT_PACKAGE_LIBS}")

# $ORIGIN: a filter library resolves its filtee (libascendcl.so) through its own RUNPATH, so the filters work
# from the package directory with no LD_LIBRARY_PATH. The same holds in the build tree (BUILD_RPATH), where
# tests may link the filters directly.
set_target_properties(${NPURT_PACKAGE_LIBS} PROPERTIES INSTALL_RPATH "$ORIGIN" BUILD_RPATH "$ORIGIN")
install(TARGETS ${NPURT_PACKAGE_LIBS}
        LIBRARY DESTINATION ${NPURT_PACKAGE_LIBDIR}
        RUNTIME DESTINATION ${NPURT_PACKAGE_LIBDIR})

# --- headers ------------------------------------------------------------------------------------------------
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/
        DESTINATION include
        FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")

# --- empty directories and version information -----------------------------------------------------------------
install(DIRECTORY DESTINATION opp)
configure_file(${_npurt_pkg_dir}/version.info.in ${PROJECT_BINARY_DIR}/package/version.info @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/version.info DESTINATION share/npurt)

# --- set_env.sh ---------------------------------------------------------------------------------------------
# Configured now (version), finished at install time: the install prefix is recorded as a fallback for shells
# that cannot tell a sourced script its own path (the script prefers its real location, so a relocated
# package still works).
set(NPURT_INSTALL_PREFIX "@NPURT_INSTALL_PREFIX@")  # keep the token for the install step below
configure_file(${_npurt_pkg_dir}/set_env.sh.in ${PROJECT_BINARY_DIR}/package/set_env.sh.in @ONLY)
unset(NPURT_INSTALL_PREFIX)
install(CODE "set(NPURT_SET_ENV_TEMPLATE \"${PROJECT_BINARY_DIR}/package/set_env.sh.in\")")
install(CODE [[
  set(_root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
  file(READ "${NPURT_SET_ENV_TEMPLATE}" _text)
  string(REPLACE "@NPURT_INSTALL_PREFIX@" "${CMAKE_INSTALL_PREFIX}" _text "${_text}")
  foreach(_out set_env.sh bin/setenv.bash)
    message(STATUS "Installing: ${_root}/${_out}")
    file(WRITE "${_root}/${_out}" "${_text}")
    file(CHMOD "${_root}/${_out}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
         WORLD_READ WORLD_EXECUTE)
    list(APPEND CMAKE_INSTALL_MANIFEST_FILES "${_root}/${_out}")
  endforeach()
]])

# --- symbolic links -----------------------------------------------------------------------------------------
# npurt_package_link(<link> <target>): <link> is relative to the prefix, <target> relative to the link's
# directory. An existing link or file at <link> is replaced.
install(CODE [[
  function(npurt_package_link link target)
    set(path "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${link}")
    get_filename_component(dir "${path}" DIRECTORY)
    file(MAKE_DIRECTORY "${dir}")
    if(IS_SYMLINK "${path}")
      file(REMOVE "${path}")
    elseif(IS_DIRECTORY "${path}")
      message(STATUS "Replacing directory ${path} by a link")
      file(REMOVE_RECURSE "${path}")
    elseif(EXISTS "${path}")
      file(REMOVE "${path}")
    endif()
    message(STATUS "Installing: ${path} -> ${target}")
    file(CREATE_LINK "${target}" "${path}" SYMBOLIC)
    set(CMAKE_INSTALL_MANIFEST_FILES ${CMAKE_INSTALL_MANIFEST_FILES} "${path}" PARENT_SCOPE)
  endfunction()
]])
set(_npurt_links
    "runtime/include|../include"
    "compiler/include|../include"
    "runtime/lib64|../lib64"
    "devlib|lib64"
    "compiler/lib64|../lib64"
    "runtime/version.info|../share/npurt/version.info"
    # Where CANN keeps ascendc.cmake, so that projects and scripts that search the CANN layout for it find ours:
    # the official samples' CMakeLists probe compiler/tikcpp/ascendc_kernel_cmake, then
    # tools/tikcpp/ascendc_kernel_cmake; tikcpp/ascendc_kernel_cmake is the per-architecture toolkit directory's.
    "compiler/tikcpp/ascendc_kernel_cmake|../../tools/ascendc/cmake"
    "tools/tikcpp/ascendc_kernel_cmake|../ascendc/cmake"
    "tikcpp/ascendc_kernel_cmake|../tools/ascendc/cmake"
    # find_package(ASC) with the package root on CMAKE_PREFIX_PATH (<prefix>/share/cmake/<name>*/: lib64 is
    # searched only after project() has enabled a language, and find_package(ASC) comes before it).
    "share/cmake/ASC|../../tools/ascendc/cmake"
    # The kernel-language compilers (tools/ascendc/npurt-ascc) where CANN keeps bisheng and ccec.
    "compiler/ccec_compiler/bin/bisheng|../../../bin/npurt-ascc"
    "compiler/ccec_compiler/bin/ccec|../../../bin/npurt-ascc"
    "${CMAKE_SYSTEM_PROCESSOR}-linux/ccec_compiler/bin/bisheng|../../../bin/npurt-ascc"
    "${CMAKE_SYSTEM_PROCESSOR}-linux/ccec_compiler/bin/ccec|../../../bin/npurt-ascc")
# The host tiling SDK's libraries (tools/ascendc/host) are linked from stub/ too, by their file names.
set(_npurt_stub_names ${NPURT_PACKAGE_LIBS})
foreach(_target npurt_tiling_platform npurt_tiling_register npurt_tiling_api npurt_ascendalog npurt_graph_base
                npurt_unified_dlog)
  if(TARGET ${_target})
    get_target_property(_name ${_target} OUTPUT_NAME)
    list(APPEND _npurt_stub_names ${_name})
  endif()
endforeach()
foreach(_lib IN LISTS _npurt_stub_names)
  list(APPEND _npurt_links "lib64/stub/lib${_lib}.so|../lib${_lib}.so")
endforeach()
foreach(_pair IN LISTS _npurt_links)
  string(REPLACE "|" ";" _pair "${_pair}")
  list(GET _pair 0 _link)
  list(GET _pair 1 _target)
  install(CODE "npurt_package_link(\"${_link}\" \"${_target}\")")
endforeach()

unset(_npurt_links)
unset(_npurt_stub_names)
unset(_npurt_pkg_dir)

# --- Ascend C kernel toolchain (tools/ascendc: ascendc.cmake, generator, kernel_operator.h) ---------------------
include(${PROJECT_SOURCE_DIR}/tools/ascendc/install.cmake)
