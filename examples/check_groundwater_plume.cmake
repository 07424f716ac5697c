# Runs the groundwater_plume example briefly in WORK_DIR (NX x NY cells, YEARS years) and
# passes only when it exits 0 (every call and cell succeeded, and VC's plume ran ahead of
# PCE's), prints a line for each year, and wrote its picture: NX x (4 NY + 3) pixels.
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})
file(REMOVE ${WORK_DIR}/groundwater_plume.png)
execute_process(COMMAND ${PROGRAM} ${NX} ${NY} ${YEARS} WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "groundwater_plume exited with ${rc}")
endif()
string(REGEX MATCHALL "\n +[0-9]+\\.[0-9] +[0-9.]+E[-+][0-9]+" years "${out}")
list(LENGTH years nyears)
if(NOT nyears EQUAL YEARS)
  message(FATAL_ERROR "expected ${YEARS} yearly lines, found ${nyears}")
endif()
math(EXPR height "4 * ${NY} + 3")
check_png(${WORK_DIR}/groundwater_plume.png ${NX} ${height})
