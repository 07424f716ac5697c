! The Fortran layer's modules (fortran/opsplit.f90): each handle family's module used
! alone (opsplit_chemistry brings opsplit_core's context and statuses with it; the
! field, CA and PCPD types are not in scope here), and `use opsplit` keeping the
! wrappers' helpers inside (the helper module below declares variables of their names,
! which the compiler refuses if a use-associated entity has that name).
module test_modules_helpers_stay_inside
  use opsplit
  implicit none
  integer :: finish = 1, already_created = 2, itoa = 3, quiet_nan = 4, values_at = 5, int_flag = 6, &
             no_values = 7, fortran_failure = 8, precision_name = 9
end module test_modules_helpers_stay_inside

program test_modules
  use opsplit_chemistry
  use test_modules_helpers_stay_inside, only: finish
  use test_checks
  implicit none
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: mech
  integer(c_int) :: a, b, nspecies
  integer :: stat

  call ctx%create(OPSPLIT_BACKEND_CPU)
  call mech%create(ctx)
  call mech%add_species('A', a)
  call mech%add_species('B', b)
  call mech%counts(nspecies=nspecies)
  call check(nspecies == 2 .and. a == 1 .and. b == 2, 'two species through opsplit_chemistry alone')
  call check(mech%find_species('B') == 2, 'found by name')
  call check(mech%find_species('C', stat) == 0 .and. stat == OPSPLIT_ERROR_INVALID_ARGUMENT, &
             'an unknown species: a status from opsplit_core')
  call check(len(opsplit_last_error()) > 0, 'its message through opsplit_core')
  call check(finish == 1, "the helper module's own finish, not the wrappers'")
  call mech%destroy()
  call ctx%destroy()
  call report_checks()
end program test_modules
