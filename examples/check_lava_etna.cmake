# Runs an Etna example for one day in WORK_DIR (FORTRAN=1 for the Fortran program's
# positional arguments and file name), without naming the data folder, and passes only
# when it read the data from DATA (the folder it finds on its own), exits 0 (its mass
# balance held to 1e-12), printed the first day's emission (2 vents x 1.580890337 m^3/s x
# 86400 s = 273177.9 m^3) and an e1 line, and wrote the map as a 1034 x 756 PNG.
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
file(MAKE_DIRECTORY ${WORK_DIR})
if(FORTRAN)
  set(args 1)
  set(png lava_etna_f.png)
else()
  set(args --days 1 --out lava_etna.png)
  set(png lava_etna.png)
endif()
set(ENV{OPSPLIT_DATA_DIR} "")
file(REMOVE ${WORK_DIR}/${png})
execute_process(COMMAND ${PROGRAM} ${args} WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
endif()
string(FIND "${out}" "data ${DATA}/etna2006\n" at)
if(at LESS 0)
  message(FATAL_ERROR "the program did not read the data in ${DATA}")
endif()
if(NOT out MATCHES " 273177\\.9 ")
  message(FATAL_ERROR "the first day's emission (273177.9 m^3) is not in the output")
endif()
if(NOT out MATCHES "e1 = sqrt\\([0-9]+ / [0-9]+\\) = 0\\.[0-9]+")
  message(FATAL_ERROR "no e1 line in the output")
endif()
check_png(${WORK_DIR}/${png} 1034 756)
