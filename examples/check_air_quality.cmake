# Runs the air_quality example briefly in WORK_DIR (NX x NX cells, HOURS hours) and passes
# only when it exits 0, prints a line for each hour, and wrote the CSV (a header and
# HOURS rows) and both maps as NX x NX PNGs (check_png.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})
file(REMOVE ${WORK_DIR}/air_quality.csv ${WORK_DIR}/air_quality_o3.png ${WORK_DIR}/air_quality_no2.png)
execute_process(COMMAND ${PROGRAM} --nx ${NX} --hours ${HOURS} --out ${WORK_DIR} WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --nx ${NX} --hours ${HOURS} exited with ${rc}")
endif()
if(NOT out MATCHES "\n +7\\.0 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\n")
  message(FATAL_ERROR "no line for 07:00 in the output")
endif()
file(STRINGS ${WORK_DIR}/air_quality.csv rows)
list(LENGTH rows count)
math(EXPR want "${HOURS} + 1")
if(NOT count EQUAL want)
  message(FATAL_ERROR "air_quality.csv has ${count} lines, expected ${want}")
endif()
check_png(${WORK_DIR}/air_quality_o3.png ${NX} ${NX})
check_png(${WORK_DIR}/air_quality_no2.png ${NX} ${NX})
