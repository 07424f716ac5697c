# Runs the flame_tube example (Fortran) in WORK_DIR on GRI-Mech 3.0 (MECHANISM; the
# environment's OPSPLIT_VALIDATION_DATA, when set, names the data folder instead, as for
# the tests) with CELLS cells and STEPS steps, and passes only when it exits 0 (its own
# checks: element totals kept by every chemistry step, the flame moving into the fresh
# gas, the hottest cell between 1800 and 2600 K), says so, and wrote its picture as a
# 640 x 400 PNG.
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
if(NOT "$ENV{OPSPLIT_VALIDATION_DATA}" STREQUAL "")
  set(MECHANISM $ENV{OPSPLIT_VALIDATION_DATA}/mechanisms/gri30.yaml)
endif()
if(NOT EXISTS ${MECHANISM})
  message(FATAL_ERROR "${MECHANISM} is missing (set OPSPLIT_VALIDATION_DATA to the shared data folder)")
endif()
file(MAKE_DIRECTORY ${WORK_DIR})
file(REMOVE ${WORK_DIR}/flame_tube_f.png)
execute_process(COMMAND ${PROGRAM} ${MECHANISM} ${CELLS} ${STEPS} WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${MECHANISM} ${CELLS} ${STEPS} exited with ${rc}")
endif()
if(NOT out MATCHES "checks passed")
  message(FATAL_ERROR "the program did not report its checks")
endif()
check_png(${WORK_DIR}/flame_tube_f.png 640 400)
