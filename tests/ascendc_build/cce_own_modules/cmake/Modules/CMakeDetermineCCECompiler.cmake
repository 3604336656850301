# A project's own CCE language (as the older kernel-launch samples bring in cmake/Modules): ccec from PATH,
# which set_env.sh of the npurt package points at its kernel-language driver.
find_program(CMAKE_CCE_COMPILER NAMES ccec PATHS "$ENV{ASCEND_HOME_PATH}/compiler/ccec_compiler/bin")
if(NOT CMAKE_CCE_COMPILER)
  message(FATAL_ERROR "ccec not found")
endif()
set(CMAKE_CCE_SOURCE_FILE_EXTENSIONS cce;cpp)
set(CMAKE_CCE_COMPILER_ENV_VAR "CCE")
file(WRITE "${CMAKE_PLATFORM_INFO_DIR}/CMakeCCECompiler.cmake"
     "set(CMAKE_CCE_COMPILER \"${CMAKE_CCE_COMPILER}\")\nset(CMAKE_CCE_COMPILER_LOADED 1)\n"
     "set(CMAKE_CCE_SOURCE_FILE_EXTENSIONS cce;cpp)\nset(CMAKE_CCE_COMPILER_ENV_VAR CCE)\n")
