# The layer rules (docs/architecture.md, "Layers"), checked on every build: cmake -DSRC=<src dir> -P CheckLayers.cmake
#
# A file under src/<layer>/ may include the folders its row lists, and nothing else of src/. The include roots
# of src/CMakeLists.txt already make most wrong-way includes fail to compile; this table also catches what an
# include root must let through: core's headers include hal, so ops and api can reach hal's headers, but they
# may neither include them nor name the driver interface (hal::). A driver includes only its own folder. Only
# base/env.cc reads the environment (getenv): every variable is in its table.
cmake_minimum_required(VERSION 3.22)

set(allowed_base    base)
set(allowed_dfx     base dfx)
set(allowed_hal     base hal)
set(allowed_drivers base hal drivers)
set(allowed_core    base dfx hal core)
set(allowed_ops     base dfx core ops)
set(allowed_models  base dfx core models)
set(allowed_hccl    base dfx core hccl)
set(allowed_dvpp    base dfx core dvpp)
set(allowed_api     base dfx core ops models hccl dvpp api)
# Layers that must not name hal:: (they reach the device through core).
set(no_hal_names dfx ops models hccl dvpp api)
set(layers base dfx hal drivers core ops models hccl dvpp api)

if(NOT SRC)
  message(FATAL_ERROR "usage: cmake -DSRC=<src dir> -P CheckLayers.cmake")
endif()
set(violations "")
foreach(layer IN LISTS layers)
  file(GLOB_RECURSE files RELATIVE ${SRC} ${SRC}/${layer}/*.cc ${SRC}/${layer}/*.h ${SRC}/${layer}/*.in)
  foreach(file IN LISTS files)
    file(STRINGS ${SRC}/${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"[a-z_]+/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([a-z_]+)/([^\"]*)\".*" "\\1;\\2" parts "${line}")
      list(GET parts 0 target)
      list(GET parts 1 rest)
      if(NOT target IN_LIST layers)
        continue()  # a public header (acl/, npurt/, ...) or a third-party one
      endif()
      if(NOT target IN_LIST allowed_${layer})
        string(APPEND violations "  ${file}: ${layer} may not include ${target}/${rest}\n")
      elseif(layer STREQUAL "drivers" AND target STREQUAL "drivers")
        # drivers/<name>/...: only its own folder (and the shared drivers/host/ once it exists).
        string(REGEX MATCH "^drivers/([a-z_]+)/" own "${file}")
        set(own ${CMAKE_MATCH_1})
        string(REGEX MATCH "^([a-z_]+)/" other "${rest}")
        set(other ${CMAKE_MATCH_1})
        if(NOT other STREQUAL own AND NOT other STREQUAL "host")
          string(APPEND violations "  ${file}: driver '${own}' may not include drivers/${rest}\n")
        endif()
      endif()
    endforeach()
    # The environment is read through base/env.h only (its table is the one list of variables).
    if(NOT file STREQUAL "base/env.cc")
      file(STRINGS ${SRC}/${file} reads REGEX "getenv[ \t]*\\(")
      foreach(line IN LISTS reads)
        string(REGEX REPLACE "//.*" "" code "${line}")
        if(code MATCHES "getenv[ \t]*\\(")
          string(STRIP "${line}" line)
          string(APPEND violations "  ${file}: reads the environment outside base/env.cc: ${line}\n")
        endif()
      endforeach()
    endif()
    if(layer IN_LIST no_hal_names)
      # hal:: names, and core::Device::hal(), the driver device behind a core device.
      set(hal_use "(^|[^a-zA-Z0-9_])hal::|(->|\\.)hal\\(\\)")
      file(STRINGS ${SRC}/${file} names REGEX "${hal_use}")
      foreach(line IN LISTS names)
        string(REGEX REPLACE "//.*" "" code "${line}")  # a comment may mention it
        if(code MATCHES "${hal_use}")
          string(STRIP "${line}" line)
          string(APPEND violations "  ${file}: ${layer} may not name the driver interface: ${line}\n")
        endif()
      endforeach()
    endif()
  endforeach()
endforeach()
if(violations)
  message(FATAL_ERROR "Wrong-way dependencies between npurt's layers (cmake/CheckLayers.cmake):\n${violations}")
endif()
