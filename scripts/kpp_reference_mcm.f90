! The driver KPP builds into the MCM isoprene reference model (scripts/kpp-reference
! copies it as driver_mcm.f90, the driver tests/data/kpp/mcm/mcm.kpp names; KPP replaces
! KPP_ROOT with mcm). Noon held for HOURS hours from the MCM example driver's start:
! TEMP 298 K, M 2.5e19, O2 0.21 M, N2 0.78 M, H2O 1e-2 M, 30 ppb O3, 0.1 ppb NO2,
! 1.8 ppm CH4, 1 ppb isoprene, zenith 0 (constants_mcm.f90's J). INTEGRATE is called
! over intervals of DELTA seconds at rtol 1e-10, atol 1e-3 molecules/cm^3, and before
! each call Update_RCONST computes the rates, and so RO2 (the sum of the peroxy radicals
! of mcm_isoprene.eqn's #INLINE F90_RCONST), from the state C at its start; the rates,
! RO2 with them, are then held over the interval (ICNTRL(15) = -1; INTEGRATE's own
! default, 5, calls Update_RCONST at every stage, where the inlined RO2 sum still reads
! the global C, the last accepted state, not the stage's values). The whole run is made
! twice, at DELTA/2 and at DELTA: RO2 held over an interval makes an error of first
! order in it, which the two runs measure (tests/unit/test_kpp.cpp).
! Writes reference.txt: a header line (hours, delta (the run's interval, seconds), then
! every species' name as KPP orders them) and a row of values (molecules/cm^3) at the
! start and every OUTPUT seconds, first the rows of the DELTA/2 run, then those of the
! DELTA run. tests/unit/test_kpp.cpp sets the same inputs (the MCM struct).
program kpp_reference_mcm
  use KPP_ROOT_Model
  use KPP_ROOT_Initialize, only: Initialize
  use constants_mcm, only: M, N2, O2, H2O, zenith
  implicit none
  integer, parameter :: HOURS = 3, OUTPUT = 900  ! seconds between rows
  real(kind=dp), parameter :: DELTA = 2.0_dp
  integer :: i, ierr, icntrl(20), istatus(20), run, row, step, steps
  real(kind=dp) :: rcntrl(20), rstatus(20), t, h
  integer, parameter :: out = 10

  icntrl = 0
  icntrl(15) = -1  ! the driver updates the rates, once an interval
  rcntrl = 0.0_dp
  rtol(1:NVAR) = 1.0e-10_dp
  atol(1:NVAR) = 1.0e-3_dp  ! molecules/cm^3
  open(out, file='reference.txt', status='replace', action='write')
  write(out, '(a)', advance='no') 'hours delta'
  do i = 1, NSPEC
    write(out, '(1x,a)', advance='no') trim(SPC_NAMES(i))
  end do
  write(out, *)
  do run = 1, 2
    h = DELTA / real(3 - run, dp)  ! DELTA/2, then DELTA (KPP's global DT is another thing)
    steps = nint(OUTPUT / h)
    call Initialize()
    TEMP = 298.0_dp
    M = 2.5e19_dp
    O2 = 0.21_dp * M
    N2 = 0.78_dp * M
    H2O = 1.0e-2_dp * M
    zenith = 0.0_dp
    C(ind_O3) = 3.0e-8_dp * M
    C(ind_NO2) = 1.0e-10_dp * M
    C(ind_CH4) = 1.8e-6_dp * M
    C(ind_C5H8) = 1.0e-9_dp * M
    do row = 0, HOURS * 3600 / OUTPUT
      t = real(row * OUTPUT, dp)
      write(out, '(2es25.16e3)', advance='no') t / 3600.0_dp, h
      write(out, '(*(es25.16e3))') C(1:NSPEC)
      if (row == HOURS * 3600 / OUTPUT) exit
      do step = 0, steps - 1
        t = real(row * OUTPUT, dp) + step * h
        call Update_RCONST()  ! RO2 from C now, held over [t, t + h]
        call INTEGRATE(TIN=t, TOUT=t + h, ICNTRL_U=icntrl, RCNTRL_U=rcntrl, ISTATUS_U=istatus, &
                       RSTATUS_U=rstatus, IERR_U=ierr)
        if (ierr < 0) then
          print *, 'INTEGRATE failed at t =', t, ': IERR =', ierr
          error stop 1
        end if
      end do
    end do
  end do
  close(out)
end program kpp_reference_mcm
