! The driver KPP builds into a reference model (scripts/kpp-reference; KPP replaces
! KPP_ROOT with the model's name). From the model's own initial values (#INITVALUES) and
! TSTART, TEND, DT, TEMP (its F90_INIT), each output interval: TIME at its start, SUN and
! the rate constants computed there and held over the interval (ICNTRL(15) = -1), one
! INTEGRATE call at tight tolerances. Writes reference.txt: a header line (hours since
! TSTART, SUN, TEMP, CFACTOR, then every species' name, variable then fixed, as KPP orders them)
! and a row of values (molecules/cm^3) at the start of each interval and at TEND.
program kpp_reference
  use KPP_ROOT_Model
  use KPP_ROOT_Initialize, only: Initialize
  implicit none
  integer :: i, ierr, icntrl(20), istatus(20)
  real(kind=dp) :: rcntrl(20), rstatus(20), t
  integer, parameter :: out = 10

  icntrl = 0
  icntrl(15) = -1  ! the driver updates SUN and the rates, once an interval
  rcntrl = 0.0_dp
  rtol(1:NVAR) = 1.0e-10_dp
  atol(1:NVAR) = 1.0e-3_dp  ! molecules/cm^3
  call Initialize()
  open(out, file='reference.txt', status='replace', action='write')
  write(out, '(a)', advance='no') 'hours SUN TEMP CFACTOR'
  do i = 1, NSPEC
    write(out, '(1x,a)', advance='no') trim(SPC_NAMES(i))
  end do
  write(out, *)
  t = TSTART
  do
    TIME = t
    call Update_SUN()
    call Update_RCONST()
    write(out, '(4es25.16e3)', advance='no') (t - TSTART) / 3600.0_dp, SUN, TEMP, CFACTOR
    write(out, '(*(es25.16e3))') C(1:NSPEC)
    if (t >= TEND) exit
    call INTEGRATE(TIN=t, TOUT=t + DT, ICNTRL_U=icntrl, RCNTRL_U=rcntrl, ISTATUS_U=istatus, &
                   RSTATUS_U=rstatus, IERR_U=ierr)
    if (ierr < 0) then
      print *, 'INTEGRATE failed at t =', t, ': IERR =', ierr
      error stop 1
    end if
    t = t + DT
  end do
  close(out)
end program kpp_reference
