# Installs opsplit into a fresh prefix, then builds and runs consumers against it:
# a C program and (when built) a Fortran program through find_package(opsplit), and
# a C program through pkg-config. Checks that the data files are installed as they are
# in the source tree (DATA_DIR), and (when the examples are built) that the installed
# demo runs from the installed data without being told where it is.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${ARGN}\n${out}")
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# The data, byte for byte, with its licences; the project's licence.
set(shared ${prefix}/share/opsplit)
file(GLOB_RECURSE data_files RELATIVE ${DATA_DIR} ${DATA_DIR}/*)
list(LENGTH data_files count)
if(count LESS 12)
  message(FATAL_ERROR "${DATA_DIR} holds ${count} files: not the data folder")
endif()
foreach(f ${data_files})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${DATA_DIR}/${f} ${shared}/${f} RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "the installed ${shared}/${f} is missing or differs from ${DATA_DIR}/${f}")
  endif()
endforeach()
file(GLOB_RECURSE installed_licence ${prefix}/share/doc/*/LICENSE)
if(NOT installed_licence)
  message(FATAL_ERROR "no LICENSE under ${prefix}/share/doc")
endif()
message(STATUS "ok: ${count} data files installed in ${shared}")

# The installed demo finds the installed data on its own (no OPSPLIT_DATA_DIR), on the CPU.
if(WITH_EXAMPLES)
  set(ENV{OPSPLIT_DATA_DIR} "")
  set(ENV{OPSPLIT_BACKEND} cpu)
  file(GLOB_RECURSE demo ${prefix}/*/opsplit/demo)
  if(NOT demo)
    message(FATAL_ERROR "no installed demo under ${prefix}")
  endif()
  execute_process(COMMAND ${demo} lava --days 1 WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  file(REAL_PATH ${shared} real_shared)
  string(FIND "${out}" "data ${real_shared}/etna2006\n" at)
  if(NOT rc EQUAL 0 OR at LESS 0 OR NOT out MATCHES "   1 +273177\\.9 ")
    message(FATAL_ERROR "the installed demo (${demo}) did not run from ${real_shared} (exit ${rc}):\n${out}\n${err}")
  endif()
  message(STATUS "ok: ${demo} lava --days 1 read ${real_shared}")
endif()

set(languages C)
if(WITH_FORTRAN)
  list(APPEND languages Fortran)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DWITH_FORTRAN=${WITH_FORTRAN})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/c_consumer)
if(WITH_FORTRAN)
  run(${WORK_DIR}/consumer/fortran_consumer)
endif()

# pkg-config, with the .pc found through PKG_CONFIG_PATH only.
file(GLOB_RECURSE pcfile ${prefix}/*/opsplit.pc)
get_filename_component(pcdir "${pcfile}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} ${pcdir})
execute_process(COMMAND pkg-config --cflags --libs opsplit OUTPUT_VARIABLE flags RESULT_VARIABLE rc
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config does not find opsplit in ${pcdir}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc -std=c11 -Wall -Wextra -pedantic -Werror ${SOURCE_DIR}/consumer.c -o ${WORK_DIR}/pkgconfig_consumer ${flags} -lm)
run(${WORK_DIR}/pkgconfig_consumer)
