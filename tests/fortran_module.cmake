# The Fortran module (FORTRAN_SOURCES, written by hand) against the C headers (HEADERS),
# so that a value, a function or a parameter added to or changed in one and not the
# other fails here instead of at a host's run time:
# - constants: every `integer(c_int), parameter :: OPSPLIT_X = n` has the value the
#   headers' enums (and the statuses' OPSPLIT_STATUS_LIST) give OPSPLIT_X, and every
#   such value has its constant;
# - interfaces: every bind(C) interface binds a declared function with as many
#   arguments as its parameters, and every declared function has one, but the calls
#   over a group, which group.h says have no Fortran bindings.
cmake_policy(SET CMP0057 NEW)
set(no_fortran_binding opsplit_set_last_error opsplit_field_attach_distributed opsplit_ca_attach_distributed
                       opsplit_pcpd_create_distributed)

# out = the number of comma-separated items of `items` (nested parentheses taken out
# first); empty and "void" have none.
function(count_items items out)
  set(previous "")
  while(NOT items STREQUAL previous)
    set(previous "${items}")
    string(REGEX REPLACE "\\([^()]*\\)" "" items "${items}")
  endwhile()
  string(STRIP "${items}" items)
  set(n 0)
  if(NOT items STREQUAL "" AND NOT items STREQUAL "void")
    string(REGEX MATCHALL "," commas "${items}")
    list(LENGTH commas n)
    math(EXPR n "${n} + 1")
  endif()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# ---- the headers: enum values (c_value_X) and functions (c_params_X) ----------------
set(c_names "")
set(c_functions "")
file(GLOB headers ${HEADERS}/*.h)
foreach(h IN LISTS headers)
  file(READ ${h} text)
  # "OPSPLIT_NAME = value" entries: the enums' own, and the statuses' list as
  # X(OPSPLIT_NAME, value) rewritten so.
  set(entries "")
  string(REGEX MATCHALL "typedef enum [a-z_]+ {[^}]*}" enums "${text}")
  foreach(e IN LISTS enums)
    string(REGEX REPLACE "/\\*[^*]*\\*+([^/*][^*]*\\*+)*/" "" e "${e}")  # comments
    string(REGEX MATCHALL "OPSPLIT_[A-Z0-9_]+ *= *-?[0-9]+" found "${e}")
    list(APPEND entries ${found})
  endforeach()
  string(REGEX MATCHALL "X\\((OPSPLIT_[A-Z0-9_]+), *(-?[0-9]+)\\)" listed "${text}")
  foreach(x IN LISTS listed)
    string(REGEX REPLACE "^X\\((OPSPLIT_[A-Z0-9_]+), *(-?[0-9]+)\\)$" "\\1 = \\2" x "${x}")
    list(APPEND entries "${x}")
  endforeach()
  foreach(entry IN LISTS entries)
    string(REGEX REPLACE "^(OPSPLIT_[A-Z0-9_]+) *= *(-?[0-9]+)$" "\\1;\\2" pair "${entry}")
    list(GET pair 0 name)
    list(GET pair 1 value)
    list(APPEND c_names ${name})
    set(c_value_${name} ${value})
  endforeach()
  # Declarations, comments taken out; a ';' would split CMake's lists: '@' ends one.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
  string(REPLACE ";" "@" text "${text}")
  string(REGEX MATCHALL "OPSPLIT_(MPI_)?API [^@({]*[ *]opsplit_[a-z0-9_]+\\([^@]*\\)@" decls "${text}")
  foreach(d IN LISTS decls)
    string(REGEX REPLACE "^[^@]*[ *](opsplit_[a-z0-9_]+)\\(([^@]*)\\)@$" "\\1" fn "${d}")
    string(REGEX REPLACE "^[^@]*[ *]opsplit_[a-z0-9_]+\\(([^@]*)\\)@$" "\\1" params "${d}")
    count_items("${params}" n)
    list(APPEND c_functions ${fn})
    set(c_params_${fn} ${n})
  endforeach()
endforeach()
list(LENGTH c_names nc)
list(LENGTH c_functions nfunctions)
if(nc LESS 50 OR nfunctions LESS 100)
  message(FATAL_ERROR "found only ${nc} enum values and ${nfunctions} functions in ${HEADERS}: "
                      "the header format changed?")
endif()

# ---- the module: constants and bind(C) interfaces ------------------------------------
set(f_names "")
set(bound "")
foreach(f IN LISTS FORTRAN_SOURCES)
  file(STRINGS ${f} lines REGEX "parameter *:: *OPSPLIT_")
  foreach(line IN LISTS lines)
    if(line MATCHES "parameter *:: *(OPSPLIT_[A-Z0-9_]+) *= *(-?[0-9]+)")
      set(name ${CMAKE_MATCH_1})
      set(value ${CMAKE_MATCH_2})
      list(APPEND f_names ${name})
      if(NOT DEFINED c_value_${name})
        message(FATAL_ERROR "${f}: ${name} is no enum value of the C headers")
      endif()
      if(NOT c_value_${name} EQUAL value)
        message(FATAL_ERROR "${f}: ${name} = ${value}, the C headers say ${c_value_${name}}")
      endif()
    endif()
  endforeach()
  file(READ ${f} text)
  string(REGEX REPLACE "&[ \t]*\n[ \t]*&?" " " text "${text}")  # continuation lines
  string(REGEX MATCHALL "(function|subroutine) +[a-z0-9_]+ *\\([^)]*\\) *bind\\([Cc], *name *= *[\"']opsplit_[a-z0-9_]+[\"']\\)"
         interfaces "${text}")
  foreach(i IN LISTS interfaces)
    string(REGEX REPLACE ".*name *= *[\"'](opsplit_[a-z0-9_]+)[\"']\\)$" "\\1" fn "${i}")
    string(REGEX REPLACE "^(function|subroutine) +[a-z0-9_]+ *\\(([^)]*)\\).*$" "\\2" args "${i}")
    count_items("${args}" n)
    if(NOT DEFINED c_params_${fn})
      message(FATAL_ERROR "${f}: binds ${fn}, which no header declares")
    endif()
    if(NOT c_params_${fn} EQUAL n)
      message(FATAL_ERROR "${f}: ${fn} has ${n} arguments, the header ${c_params_${fn}} parameters")
    endif()
    list(APPEND bound ${fn})
  endforeach()
endforeach()

set(missing "")
foreach(name IN LISTS c_names)
  if(NOT name IN_LIST f_names)
    list(APPEND missing ${name})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "C enum values without their Fortran constant: ${missing}")
endif()
set(unbound "")
foreach(fn IN LISTS c_functions)
  if(NOT fn IN_LIST bound AND NOT fn IN_LIST no_fortran_binding)
    list(APPEND unbound ${fn})
  endif()
endforeach()
if(unbound)
  message(FATAL_ERROR "C functions without a bind(C) interface in the module: ${unbound}")
endif()
list(LENGTH f_names nf)
list(LENGTH bound nb)
list(LENGTH no_fortran_binding nexempt)
message(STATUS "${nf} Fortran constants match the ${nc} enum values of the C headers; ${nb} bind(C) interfaces "
               "match their functions by name and argument count (the headers' other ${nexempt}: the calls "
               "over a group)")
