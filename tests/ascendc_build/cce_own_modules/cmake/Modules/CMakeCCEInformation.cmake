# CANN-style rules: device options (--cce-aicore-arch, -mllvm ...) on the compile, ccec linking with CANN's
# runtime libraries by name.
include(CMakeCommonLanguageInclude)
set(CMAKE_INCLUDE_FLAG_CCE "-I")
set(CMAKE_CCE_OUTPUT_EXTENSION .o)
set(CMAKE_CCE_COMPILE_OBJECT
    "<CMAKE_CCE_COMPILER> -xcce <DEFINES> <INCLUDES> <FLAGS> --cce-aicore-arch=dav-c220-vec -mllvm -cce-aicore-record-overflow=false -fPIC -pthread -o <OBJECT> -c <SOURCE>")
set(CMAKE_CCE_LINK_EXECUTABLE
    "<CMAKE_CCE_COMPILER> --cce-fatobj-link <FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES> -L$ENV{ASCEND_HOME_PATH}/runtime/lib64 -lstdc++ -lruntime -lascendcl")
set(CMAKE_CCE_INFORMATION_LOADED 1)
