! opsplit: the Fortran module on top of the C ABI (include/opsplit/core.h, field.h,
! mechanism.h, ode.h, ca.h, pcpd.h, groundwater.h).
!
! Two layers:
!  * every C function under its own name through a bind(C) interface: handles are
!    type(c_ptr) (by value where C takes the handle, by reference where C takes a
!    pointer to it), enums are integer(c_int) named constants with the C names and
!    values, int64_t is integer(c_int64_t), host arrays are type(c_ptr), function
!    pointers type(c_funptr), strings NUL-terminated character(kind=c_char) arrays;
!  * one derived type per handle kind (opsplit_context_t, opsplit_field_t, opsplit_rd_t,
!    opsplit_mechanism_t, opsplit_ode_t, opsplit_ca_t, opsplit_pcpd_t, opsplit_gw_t) with type-bound
!    procedures taking Fortran arrays and 1-based component, species, reaction,
!    parameter, row, column, vent and replica indices.
!    Every one of them ends in an optional `stat`: when present it receives the status;
!    when absent and the call failed, "opsplit: <message>" goes to error_unit and the
!    program stops with `error stop`. `destroy` is idempotent. There is no final
!    procedure: intrinsic assignment copies the handle, so a finalizer of one copy
!    would free the object under the other; call destroy.
!
! opsplit_last_error() gives the message of the last failed call: the C library's
! thread-local message, or the message of a failure the Fortran wrappers found
! themselves (array kind or size, 1-based index). The Fortran-side message is module
! state, not thread-local.
!
! The layers live in one module per handle family, each usable alone:
!   opsplit_core       core.h: statuses, backends, opsplit_context_t, errors, strings
!   opsplit_fields     field.h: opsplit_field_t, opsplit_rd_t
!   opsplit_chemistry  mechanism.h, ode.h: opsplit_mechanism_t, opsplit_ode_t
!   opsplit_automata   ca.h: opsplit_ca_t
!   opsplit_lattices   pcpd.h: opsplit_pcpd_t
!   opsplit_groundwater groundwater.h: opsplit_gw_t
! and `use opsplit` brings in all of them (opsplit_mpi, for MPI hosts, is apart).
module opsplit
  use opsplit_core
  use opsplit_fields
  use opsplit_chemistry
  use opsplit_automata
  use opsplit_lattices
  use opsplit_groundwater
  implicit none
  ! The wrappers' helpers stay inside.
  private :: finish, already_created, itoa, quiet_nan, values_at, int_flag, no_values
end module opsplit
