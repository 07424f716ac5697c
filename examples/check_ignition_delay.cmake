# Runs the ignition_delay example in WORK_DIR without naming the mechanism, at the
# temperatures of Cantera's reference file REFERENCE (tests/data/cantera/ignition_gri30.txt,
# `delay T0 cp_delay rho cv_delay` lines), and passes only when it read GRI-Mech 3.0 from
# MECHANISM (the data folder's, which it finds on its own), exits 0, its table gives a
# delay and a relative difference from Cantera's within 1 % at every temperature of the
# reference, and it wrote its picture as a 640 x 400 PNG.
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
set(ENV{OPSPLIT_DATA_DIR} "")
file(MAKE_DIRECTORY ${WORK_DIR})
file(REMOVE ${WORK_DIR}/ignition_delay.png)

# Cantera's temperatures: 1000 to 1500 K in steps of 100 (the program spaces its
# TEMPERATURES evenly over the same range, so 6 of them fall on these).
file(STRINGS ${REFERENCE} lines REGEX "^delay ")
set(reference_T0)
foreach(line ${lines})
  string(REGEX REPLACE "^delay +([0-9.]+) .*" "\\1" T0 "${line}")
  list(APPEND reference_T0 ${T0})
endforeach()
list(LENGTH reference_T0 count)
if(count EQUAL 0)
  message(FATAL_ERROR "${REFERENCE} has no delay lines")
endif()

execute_process(COMMAND ${PROGRAM} --reference ${REFERENCE} --out ${WORK_DIR} --temperatures ${TEMPERATURES}
                WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
string(FIND "${out}" "mechanism ${MECHANISM}\n" at)
if(at LESS 0)
  message(FATAL_ERROR "the program did not read ${MECHANISM}")
endif()
if(NOT out MATCHES "backend (CPU|CUDA)")
  message(FATAL_ERROR "the program did not say which backend ran")
endif()

# A table row: T0, delay, Cantera's delay, relative difference, T at the end, steps.
set(number "[-+]?[0-9]+\\.?[0-9]*([eE][-+]?[0-9]+)?")
foreach(T0 ${reference_T0})
  string(REGEX REPLACE "\\.0*$" "" whole "${T0}")
  if(NOT out MATCHES "\n +${whole}\\.0 +(${number}) +(${number}) +(${number}) ")
    message(FATAL_ERROR "no table row with a delay and Cantera's for T0 = ${T0} K")
  endif()
  set(delay ${CMAKE_MATCH_1})
  set(difference ${CMAKE_MATCH_5})
  string(REGEX REPLACE "^[-+]" "" size "${difference}")
  if(NOT delay GREATER 0 OR NOT size LESS_EQUAL 0.01)
    message(FATAL_ERROR "T0 = ${T0} K: delay ${delay} s differs from Cantera's by ${difference} (limit 1 %)")
  endif()
  message(STATUS "T0 = ${T0} K: delay ${delay} s, relative difference from Cantera ${difference}")
endforeach()
check_png(${WORK_DIR}/ignition_delay.png 640 400)
