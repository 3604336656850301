# Installs npurt's Ascend C toolchain into the package (included by cmake/NpurtPackage.cmake):
#   <P>/tools/ascendc/cmake/ascendc.cmake      the CMake module (set_env.sh points ASCENDC_CMAKE_DIR here)
#   <P>/tools/ascendc/npurt_kernel_gen.py      the source generator it runs (python3 <file>: not executable,
#                                              the package holds no executables)
#   <P>/tools/ascendc/include/                 kernel_operator.h and npurt_kernel/*.h
#   <P>/lib64/lib{platform,register,tiling_api,ascendalog,graph_base,unified_dlog}.so and <P>/include/{tiling,register,kernel_tiling,
#                                              toolchain}/: the host tiling SDK (host/, docs/kernels.md)
# The kernel binary ABI header is a public header: <P>/include/npurt/kernel_abi.h.
#   <P>/tools/ascendc/cmake/ASCConfig.cmake, CMake{Determine,Test}{ASC,CCE}Compiler.cmake, CMake{ASC,CCE}Information.cmake,
#                                              npurt_kernel_language.cmake: find_package(ASC) and the languages ASC
#                                              and CCE (reached as <P>/compiler/tikcpp/ascendc_kernel_cmake)
#   <P>/bin/npurt-ascc                         their compiler driver (links: <P>/compiler/ccec_compiler/bin/bisheng,
#                                              .../ccec, <P>/<arch>-linux/ccec_compiler/bin/..., made by NpurtPackage)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/cmake/ascendc.cmake ${CMAKE_CURRENT_LIST_DIR}/cmake/ASCConfig.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/npurt_kernel_language.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/CMakeDetermineASCCompiler.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/CMakeASCInformation.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/CMakeTestASCCompiler.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/CMakeDetermineCCECompiler.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/CMakeCCEInformation.cmake
        ${CMAKE_CURRENT_LIST_DIR}/cmake/CMakeTestCCECompiler.cmake
        DESTINATION tools/ascendc/cmake)
install(PROGRAMS ${CMAKE_CURRENT_LIST_DIR}/npurt-ascc DESTINATION bin)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/npurt_kernel_gen.py DESTINATION tools/ascendc)
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/include/ DESTINATION tools/ascendc/include FILES_MATCHING PATTERN "*.h")
install(TARGETS npurt_tiling_platform npurt_tiling_register npurt_tiling_api npurt_ascendalog npurt_graph_base
        npurt_unified_dlog
        LIBRARY DESTINATION ${NPURT_PACKAGE_LIBDIR})
install(DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/host/include/ DESTINATION include FILES_MATCHING PATTERN "*.h")
