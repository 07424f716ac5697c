# Installs opsplit into a fresh prefix, then builds and runs consumers against it:
# a C program and (when built) a Fortran program through find_package(opsplit), and
# a C program through pkg-config.
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
