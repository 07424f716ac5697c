# Runs the flame_tube example (Fortran) in WORK_DIR with CELLS cells and STEPS steps,
# without naming the mechanism, and passes only when it read GRI-Mech 3.0 from MECHANISM
# (the data folder's, which it finds on its own), exits 0 (its own checks: element totals
# kept by every chemistry step, the flame moving into the fresh gas, the hottest cell
# between 1800 and 2600 K), says so, and wrote its picture as a 640 x 400 PNG.
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
set(ENV{OPSPLIT_DATA_DIR} "")
file(MAKE_DIRECTORY ${WORK_DIR})
file(REMOVE ${WORK_DIR}/flame_tube_f.png)
execute_process(COMMAND ${PROGRAM} ${CELLS} ${STEPS} WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} ${CELLS} ${STEPS} exited with ${rc}")
endif()
string(FIND "${out}" "mechanism ${MECHANISM}\n" at)
if(at LESS 0)
  message(FATAL_ERROR "the program did not read ${MECHANISM}")
endif()
if(NOT out MATCHES "checks passed")
  message(FATAL_ERROR "the program did not report its checks")
endif()
check_png(${WORK_DIR}/flame_tube_f.png 640 400)
