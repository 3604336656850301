# Sources generated from the public headers by tools/gen_api.py, the single list of exported functions.
#
#   npurt_generate_api(STUBS_VAR <var> FILTER_VAR <var>)
#
# sets <STUBS_VAR> to ${CMAKE_BINARY_DIR}/generated/api_stubs.cc (a NOT_SUPPORTED definition for each
# exported function that no src/api/*.cc defines yet) and <FILTER_VAR> to .../acl_filter.c (one dummy
# symbol per exported function, the symbol table of the ELF filter libraries). Both are regenerated
# when the tool, the headers or the set or contents of src/api/*.cc change.
#
# Also defines the `api-coverage` target, which rewrites docs/api-coverage.md in the source tree.

set(NPURT_API_GEN_TOOL ${PROJECT_SOURCE_DIR}/tools/gen_api.py)
set(NPURT_API_HEADERS
    ${PROJECT_SOURCE_DIR}/include/acl/acl_base_rt.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_rt.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_rt_allocator.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_rt_memory_soma.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_base_mdl.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_mdl.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_op.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_op_compiler.h
    ${PROJECT_SOURCE_DIR}/include/acl/ops/acl_cblas.h
    ${PROJECT_SOURCE_DIR}/include/aclnn/acl_meta.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_prof.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_dump.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_tdt.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_tdt_queue.h
    ${PROJECT_SOURCE_DIR}/include/acl/ops/acl_dvpp.h
    ${PROJECT_SOURCE_DIR}/include/acl/acl_rt_compile.h
    ${PROJECT_SOURCE_DIR}/include/profiling/aprof_pub.h)
file(GLOB NPURT_ACLNN_OP_HEADERS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/aclnnop/*.h)
list(APPEND NPURT_API_HEADERS ${NPURT_ACLNN_OP_HEADERS})
set(NPURT_API_DIR ${PROJECT_SOURCE_DIR}/src/api)

function(npurt_generate_api)
  cmake_parse_arguments(ARG "" "STUBS_VAR;FILTER_VAR" "" ${ARGN})
  if(NOT ARG_STUBS_VAR OR NOT ARG_FILTER_VAR OR ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "usage: npurt_generate_api(STUBS_VAR <var> FILTER_VAR <var>)")
  endif()

  # Which functions have a definition depends on every src/api source, including files added later
  # (CONFIGURE_DEPENDS re-globs at build time).
  file(GLOB api_sources CONFIGURE_DEPENDS ${NPURT_API_DIR}/*.cc)
  set(gen_dir ${CMAKE_BINARY_DIR}/generated)
  set(stubs ${gen_dir}/api_stubs.cc)
  set(filter ${gen_dir}/acl_filter.c)
  set(tool ${Python3_EXECUTABLE} ${NPURT_API_GEN_TOOL} --root ${PROJECT_SOURCE_DIR})

  # The tool leaves an unchanged output untouched, so editing a src/api file does not recompile the
  # stubs unless the set of implemented functions changed.
  add_custom_command(
    OUTPUT ${stubs}
    COMMAND ${tool} stubs --api-dir ${NPURT_API_DIR} --out ${stubs}
    DEPENDS ${NPURT_API_GEN_TOOL} ${NPURT_API_HEADERS} ${api_sources}
            ${PROJECT_SOURCE_DIR}/tools/api_unsupported.txt
    COMMENT "Generating stubs for unimplemented ACL functions"
    VERBATIM)
  add_custom_command(
    OUTPUT ${filter}
    COMMAND ${tool} filter --out ${filter}
    DEPENDS ${NPURT_API_GEN_TOOL} ${NPURT_API_HEADERS}
    COMMENT "Generating the symbol table of the ACL filter libraries"
    VERBATIM)

  if(NOT TARGET api-coverage)
    add_custom_target(api-coverage
      COMMAND ${tool} coverage --api-dir ${NPURT_API_DIR} --out ${PROJECT_SOURCE_DIR}/docs/api-coverage.md
      WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
      COMMENT "Regenerating docs/api-coverage.md"
      VERBATIM)
  endif()

  set(${ARG_STUBS_VAR} ${stubs} PARENT_SCOPE)
  set(${ARG_FILTER_VAR} ${filter} PARENT_SCOPE)
endfunction()
