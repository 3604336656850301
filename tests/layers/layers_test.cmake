# cmake -DSRC=... -DCHECK=... -DROOTS=... -DCXX=... -DINCLUDE=... -DWORK=... -P layers_test.cmake
cmake_minimum_required(VERSION 3.22)

function(expect_check tree should_pass what)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${tree} -P ${CHECK} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(should_pass AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: the layer check failed:\n${err}")
  elseif(NOT should_pass AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: the layer check passed a wrong-way dependency")
  elseif(NOT should_pass AND NOT err MATCHES "Wrong-way dependencies")
    message(FATAL_ERROR "${what}: the layer check failed without naming the dependency:\n${err}")
  endif()
endfunction()

# Compiles `text` against layer `layer`'s include root; `should_compile` says whether it must.
function(expect_compile layer text should_compile what)
  file(WRITE ${WORK}/probe.cc "${text}\n")
  execute_process(COMMAND ${CXX} -std=c++20 -fsyntax-only -DNPURT_INTERNAL_BUILD -DFUNC_VISIBILITY
                          -I${ROOTS}/${layer} -I${INCLUDE} ${WORK}/probe.cc
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(should_compile AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${what}: did not compile against ${layer}'s include root:\n${err}")
  elseif(NOT should_compile AND rc EQUAL 0)
    message(FATAL_ERROR "${what}: compiled against ${layer}'s include root")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# The tree as it is obeys the rules.
expect_check(${SRC} TRUE "the source tree")

# Each kind of wrong-way dependency, injected into a copy of the tree, is caught.
set(cases
    "core/stream.cc|#include \"ops/op_def.h\"|core including ops"
    "hal/hal.h|#include \"core/stream.h\"|hal including core"
    "dfx/log.cc|#include \"hal/hal.h\"|dfx including hal"
    "base/status.h|#include \"dfx/log.h\"|base including dfx"
    "api/event.cc|#include \"hal/hal.h\"|api including hal"
    "api/event.cc|using WrongWay = npurt::hal::Task|api naming hal::"
    "ops/op_launch.cc|auto* wrong_way = stream->device()->hal()|ops reaching the driver device"
    "ops/op_launch.cc|#include \"drivers/sim/sim_queue.h\"|ops including a driver"
    "drivers/sim/sim_queue.cc|#include \"drivers/null/other.h\"|a driver including another driver"
    "drivers/null/null_driver.cc|#include \"core/runtime.h\"|a driver including core"
    "core/stream.cc|static const char* g_wrong = std::getenv(\"NPURT_NEW_KNOB\")|a getenv outside base/env.cc")
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 file)
  list(GET parts 1 line)
  list(GET parts 2 what)
  set(tree ${WORK}/tree)
  file(REMOVE_RECURSE ${tree})
  file(COPY ${SRC}/ DESTINATION ${tree})
  file(APPEND ${tree}/${file} "\n${line}\n")
  expect_check(${tree} FALSE "${what}")
endforeach()

# The include roots: a layer sees what it may use and nothing above it.
expect_compile(npurt_core "#include \"core/stream.h\"" TRUE "core including its own header")
expect_compile(npurt_core "#include \"ops/op_def.h\"" FALSE "core including ops")
expect_compile(npurt_hal "#include \"core/stream.h\"" FALSE "hal including core")
expect_compile(npurt_dfx "#include \"hal/hal.h\"" FALSE "dfx including hal")
expect_compile(npurt_drivers "#include \"core/device.h\"" FALSE "a driver including core")
expect_compile(npurt_base "#include \"dfx/log.h\"" FALSE "base including dfx")
file(REMOVE_RECURSE ${WORK})
