# Runs examples/mpi_plume (PROGRAM, NX NY NZ STEPS) under MPIEXEC on each process count of
# PROCESSES (comma-separated), each in WORK_DIR/np<count>, and passes only when every run
# exits 0 (the program's NOx and Ox totals kept within its limit), says it ran on that
# many processes, prints its drift line, the global-order totals and a checksum, and
# writes mpi_plume.png as a (4 NY) x (4 NZ) PNG (check_png.cmake); and when every run
# prints the same checksum and totals and writes the same PNG bytes as the first: the
# distributed field step is the one-process step bit for bit and the chemistry is per
# cell, so the decomposition must not change a bit.
include(${CMAKE_CURRENT_LIST_DIR}/check_png.cmake)
string(REPLACE "," ";" processes "${PROCESSES}")
separate_arguments(pre UNIX_COMMAND "${PREFLAGS}")
separate_arguments(post UNIX_COMMAND "${POSTFLAGS}")
math(EXPR width "4 * ${NY}")
math(EXPR height "4 * ${NZ}")
set(reference "")
foreach(np ${processes})
  set(dir ${WORK_DIR}/np${np})
  file(MAKE_DIRECTORY ${dir})
  file(REMOVE ${dir}/mpi_plume.png)
  set(command ${MPIEXEC} ${NUMPROC_FLAG} ${np} ${pre} ${PROGRAM} ${NX} ${NY} ${NZ} ${STEPS} ${post})
  execute_process(COMMAND ${command} WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  message("${out}${err}")
  list(JOIN command " " shown)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${shown} exited with ${rc}")
  endif()
  if(NOT out MATCHES "cells on ${np} processes")
    message(FATAL_ERROR "${shown}: the program did not run on ${np} processes")
  endif()
  if(NOT out MATCHES "NOx drift +[0-9.]+E[-+][0-9]+ Ox drift +[0-9.]+E[-+][0-9]+")
    message(FATAL_ERROR "${shown}: no drift line in the output")
  endif()
  string(REGEX MATCH "totals in global order[^\n]*" totals "${out}")
  string(REGEX MATCH "checksum [0-9A-F]+" checksum "${out}")
  if(NOT totals OR NOT checksum)
    message(FATAL_ERROR "${shown}: no global-order totals or no checksum in the output")
  endif()
  check_png(${dir}/mpi_plume.png ${width} ${height})
  file(SHA256 ${dir}/mpi_plume.png picture)
  if(reference STREQUAL "")
    set(reference "${np}")
    set(reference_result "${totals}\n${checksum}\nPNG ${picture}")
  elseif(NOT "${totals}\n${checksum}\nPNG ${picture}" STREQUAL reference_result)
    message(FATAL_ERROR "${np} processes differ from ${reference}:\n${totals}\n${checksum}\nPNG ${picture}\n"
                        "against\n${reference_result}")
  endif()
endforeach()
message("the same bits on ${PROCESSES} processes:\n${reference_result}")
