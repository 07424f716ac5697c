! Fortran tests of gas mechanisms loaded from Cantera YAML files through
! opsplit_mechanism_t: h2o2.yaml's species, equations, molar masses, species
! thermodynamics, mixture, concentrations, rates of progress and net production rates
! against Cantera's numbers (the first state of tests/data/cantera/rates_h2o2.txt, SI
! units with moles); the wrappers' 1-based indices and size checks; failures through stat
! that leave the objects usable; a built mechanism refusing gas queries; the CHEMKIN
! version of h2o2 (load_chemkin) giving the YAML version's rates.
!
! Arguments: the path of h2o2.yaml, of features.yaml and of rates_h2o2.txt. The CHEMKIN
! files (h2o2.inp, h2o2_thermo.dat, features.inp) are read from features.yaml's folder.
program test_fortran_gas
  use opsplit
  use test_checks
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
  implicit none

  integer, parameter :: max_species = 64, max_reactions = 256
  character(len=:), allocatable :: h2o2_path, features_path, reference_path, kpp_path, micm_path
  ! The reference: header and first state.
  integer :: ref_nspecies = 0, ref_nreactions = 0
  character(len=32) :: ref_names(max_species)
  character(len=256) :: ref_equations(max_reactions)
  real(c_double), allocatable :: ref_W(:), ref_Y(:), ref_C(:), ref_cp_R(:), ref_h_RT(:), ref_s_R(:), ref_wdot(:), &
                                 ref_scale(:), ref_qf(:), ref_qr(:)
  real(c_double) :: ref_T = 0, ref_P = 0, ref_density = 0, ref_cp = 0, ref_cv = 0, ref_h = 0, ref_u = 0
  type(opsplit_context_t) :: ctx
  integer :: status

  h2o2_path = argument(1)
  features_path = argument(2)
  reference_path = argument(3)
  kpp_path = argument(4)
  micm_path = argument(5)
  call read_reference(reference_path)
  call check(ref_nspecies == 10 .and. ref_nreactions == 29, 'the reference has 10 species and 29 reactions')

  call ctx%create(OPSPLIT_BACKEND_CPU)
  call against_cantera()
  call failures_through_stat()
  call other_mechanisms()
  call ignition_reactor()
  call reactor_jacobian()
  call chemkin_version()
  call kpp_version()
  call micm_version()
  call ctx%destroy(stat=status)
  call check(status == OPSPLIT_SUCCESS, 'every mechanism was destroyed: ' // opsplit_last_error())
  ! The main program's allocatables are never freed by the runtime: the sanitizer build's
  ! leak checker would report them.
  deallocate(h2o2_path, features_path, reference_path, kpp_path, micm_path)
  if (allocated(ref_W)) deallocate(ref_W)
  if (allocated(ref_Y)) deallocate(ref_Y, ref_C, ref_cp_R, ref_h_RT, ref_s_R, ref_wdot, ref_scale, ref_qf, ref_qr)
  call report_checks()

contains

  function argument(i) result(s)
    integer, intent(in) :: i
    character(len=:), allocatable :: s
    integer :: n, status
    call get_command_argument(i, length=n, status=status)
    if (status /= 0 .or. n == 0) then
      print '(a)', 'usage: test_fortran_gas h2o2.yaml features.yaml rates_h2o2.txt small_strato.def chapman.yaml'
      error stop 2
    end if
    allocate(character(len=n) :: s)
    call get_command_argument(i, s)
  end function argument

  ! Reads the header and the first state of a scripts/cantera-reference file: lines
  ! "key values...", states opened by a line "state".
  subroutine read_reference(path)
    character(len=*), intent(in) :: path
    character(len=8192) :: line
    character(len=32) :: key
    integer :: unit, ios, nstates, split, n, m
    open(newunit=unit, file=path, status='old', action='read', iostat=ios)
    if (ios /= 0) then
      print '(a)', 'cannot read ' // path
      error stop 2
    end if
    nstates = 0
    m = 0
    do
      read(unit, '(a)', iostat=ios) line
      if (ios /= 0) exit
      if (len_trim(line) == 0 .or. line(1:1) == '#') cycle
      split = index(line, ' ')
      key = line(1:split - 1)
      n = ref_nspecies
      if (nstates == 0) then
        select case (trim(key))
        case ('species')
          read(line(split:), *) ref_nspecies
          read(line(split:), *) ref_nspecies, ref_names(1:ref_nspecies)
        case ('reactions')
          read(line(split:), *) ref_nreactions
        case ('equation')
          m = m + 1
          ref_equations(m) = line(split + 1:)
        case ('molar_mass')
          allocate(ref_W(n))
          read(line(split:), *) ref_W
        case ('state')
          nstates = 1
          allocate(ref_Y(n), ref_C(n), ref_cp_R(n), ref_h_RT(n), ref_s_R(n), ref_wdot(n), ref_scale(n), &
                   ref_qf(ref_nreactions), ref_qr(ref_nreactions))
        end select
      else
        select case (trim(key))
        case ('state')
          exit
        case ('T')
          read(line(split:), *) ref_T
        case ('P')
          read(line(split:), *) ref_P
        case ('mass_fractions')
          read(line(split:), *) ref_Y
        case ('concentrations')
          read(line(split:), *) ref_C
        case ('cp_R')
          read(line(split:), *) ref_cp_R
        case ('h_RT')
          read(line(split:), *) ref_h_RT
        case ('s_R')
          read(line(split:), *) ref_s_R
        case ('density')
          read(line(split:), *) ref_density
        case ('cp_mass')
          read(line(split:), *) ref_cp
        case ('cv_mass')
          read(line(split:), *) ref_cv
        case ('enthalpy_mass')
          read(line(split:), *) ref_h
        case ('int_energy_mass')
          read(line(split:), *) ref_u
        case ('forward_rop')
          read(line(split:), *) ref_qf
        case ('reverse_rop')
          read(line(split:), *) ref_qr
        case ('net_production')
          read(line(split:), *) ref_wdot
        case ('production_scale')
          read(line(split:), *) ref_scale
        end select
      end if
    end do
    close(unit)
    if (nstates == 0 .or. m /= ref_nreactions .or. ref_T <= 0 .or. ref_P <= 0) then
      print '(a)', 'no complete first state in ' // path
      error stop 2
    end if
  end subroutine read_reference

  ! max |got - want| / scale over the entries (scale > 0).
  real(c_double) function worst(got, want, scale)
    real(c_double), intent(in) :: got(:), want(:), scale(:)
    worst = maxval(abs(got - want) / scale)
  end function worst

  subroutine against_cantera()
    type(opsplit_mechanism_t) :: mech
    integer(c_int) :: nspecies, nreactions, nparams, k
    integer :: status
    real(c_double), allocatable :: W(:), cp_R(:), h_RT(:), s_R(:), C(:), wdot(:), ydot(:), qf(:), qr(:), q_scale(:)
    real(c_double) :: density, cp, cv, h, u
    logical :: same

    call mech%load_yaml(ctx, h2o2_path, stat=status)  ! no phase: the first, ohmech
    call check(status == OPSPLIT_SUCCESS .and. mech%created(), 'load h2o2.yaml: ' // opsplit_last_error())
    if (.not. mech%created()) return
    call check(mech%kind() == OPSPLIT_MECHANISM_GAS, 'a loaded mechanism is GAS')
    call mech%counts(nspecies, nreactions, nparams)
    call check(nspecies == 10 .and. nreactions == 29 .and. nparams == 1, 'h2o2.yaml: 10 species, 29 reactions, T')
    if (nspecies /= ref_nspecies .or. nreactions /= ref_nreactions) then
      call mech%destroy()
      return
    end if
    call check(mech%species_name(1) == 'H2', 'species 1 is H2: ' // mech%species_name(1))
    same = .true.
    do k = 1, nspecies
      same = same .and. mech%species_name(k) == trim(ref_names(k))
      same = same .and. mech%find_species(trim(ref_names(k))) == k
    end do
    call check(same, 'every species name and number as in Cantera')
    ! The equations as the file writes them (Cantera's reference lists them in its own
    ! order of terms, "H + O2 + O2 <=> HO2 + O2" for the file's "H + 2 O2 <=> HO2 + O2").
    call check(mech%equation(1) == '2 O + M <=> O2 + M', 'equation(1): ' // mech%equation(1))
    call check(mech%equation(1) == trim(ref_equations(1)), 'equation(1) is Cantera''s: ' // trim(ref_equations(1)))
    call check(mech%equation(7) == 'H + 2 O2 <=> HO2 + O2', 'equation(7): ' // mech%equation(7))
    call check(mech%equation(22) == '2 OH (+M) <=> H2O2 (+M)', 'equation(22): ' // mech%equation(22))
    call check(mech%equation(nreactions) == 'OH + HO2 <=> O2 + H2O', 'the last equation: ' // &
               mech%equation(nreactions))

    allocate(W(nspecies), cp_R(nspecies), h_RT(nspecies), s_R(nspecies), C(nspecies), wdot(nspecies), &
             ydot(nspecies), qf(nreactions), qr(nreactions), q_scale(nreactions))
    call mech%molar_masses(W)
    call check(worst(W, ref_W, ref_W) <= 1e-14_c_double, 'molar masses')

    call mech%species_thermo(ref_T, cp_R, h_RT, s_R)
    call check(worst(cp_R, ref_cp_R, max(abs(ref_cp_R), 1.0_c_double)) <= 1e-13_c_double, 'cp/R')
    call check(worst(h_RT, ref_h_RT, max(abs(ref_h_RT), 1.0_c_double)) <= 1e-13_c_double, 'h/RT')
    call check(worst(s_R, ref_s_R, max(abs(ref_s_R), 1.0_c_double)) <= 1e-13_c_double, 's/R')
    s_R = -1.0_c_double
    call mech%species_thermo(ref_T, h_RT=h_RT)  ! the others are optional
    call check(all(s_R == -1.0_c_double) .and. worst(h_RT, ref_h_RT, max(abs(ref_h_RT), 1.0_c_double)) <= 1e-13_c_double, &
               'species_thermo with h_RT only')

    call mech%mixture_properties(ref_T, ref_P, ref_Y, density, cp, cv, h, u)
    call check(abs(density - ref_density) <= 1e-12_c_double * ref_density, 'density')
    call check(abs(cp - ref_cp) <= 1e-13_c_double * ref_cp .and. abs(cv - ref_cv) <= 1e-13_c_double * ref_cv, &
               'cp and cv')
    call check(abs(h - ref_h) <= 1e-13_c_double * ref_cp * ref_T .and. &
               abs(u - ref_u) <= 1e-13_c_double * ref_cp * ref_T, 'enthalpy and internal energy')
    density = -1.0_c_double
    call mech%mixture_properties(ref_T, ref_P, ref_Y, density=density)
    call check(abs(density - ref_density) <= 1e-12_c_double * ref_density, 'density alone')

    call mech%concentrations(ref_T, ref_P, ref_Y, C)
    call check(worst(C, ref_C, abs(ref_C)) <= 1e-13_c_double, 'concentrations')

    call mech%net_production_rates(ref_T, ref_C, wdot)
    call check(worst(wdot, ref_wdot, max(ref_scale, tiny(1.0_c_double))) <= 1e-10_c_double, &
               'net production rates within 1e-10 of creation + destruction')
    call mech%evaluate(ref_C, [ref_T], ydot)
    call check(all(ydot == wdot), 'evaluate with params = [T] gives the net production rates')

    call mech%rates_of_progress(ref_T, ref_C, qf, qr)
    q_scale = max(abs(ref_qf), abs(ref_qr), tiny(1.0_c_double))
    call check(worst(qf, ref_qf, q_scale) <= 1e-10_c_double, 'forward rates of progress')
    call check(worst(qr, ref_qr, q_scale) <= 1e-10_c_double, 'reverse rates of progress')
    qf = -1.0_c_double
    call mech%rates_of_progress(ref_T, ref_C, reverse=qr)
    call check(all(qf == -1.0_c_double) .and. worst(qr, ref_qr, q_scale) <= 1e-10_c_double, &
               'rates_of_progress with reverse only')
    call mech%destroy()
  end subroutine against_cantera

  ! Bad input comes back through stat, found by the wrappers (sizes, 1-based indices) or
  ! by C (T, P, values, handles, kinds, files); the object keeps working.
  subroutine failures_through_stat()
    type(opsplit_mechanism_t) :: mech, missing
    real(c_double), allocatable :: wdot(:), again(:), short(:), C(:), qf(:)
    real(c_double) :: density, cp
    integer(c_int) :: nspecies, nreactions
    integer :: status
    character(len=:), allocatable :: text

    call mech%load_yaml(ctx, h2o2_path, 'ohmech', stat=status)
    call check(status == OPSPLIT_SUCCESS, 'load h2o2.yaml, phase ohmech')
    if (status /= OPSPLIT_SUCCESS) return
    allocate(wdot(ref_nspecies), again(ref_nspecies), short(ref_nspecies - 1), C(ref_nspecies), &
             qf(ref_nreactions - 1))
    call mech%net_production_rates(ref_T, ref_C, wdot)

    call mech%load_yaml(ctx, h2o2_path, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'load_yaml on a created object is refused')
    call check(index(opsplit_last_error(), 'already holds') > 0, 'it says so: ' // opsplit_last_error())

    again = 7.0_c_double
    call mech%net_production_rates(-1.0_c_double, ref_C, again, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'net_production_rates at T = -1')
    call check(index(opsplit_last_error(), 'opsplit_mechanism_net_production_rates: T=-1') == 1, &
               'the message names T: ' // opsplit_last_error())
    call check(all(again == 7.0_c_double), 'a refused call writes nothing')
    call mech%net_production_rates(ieee_nan(), ref_C, again, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'net_production_rates at T = NaN')
    call mech%species_thermo(0.0_c_double, again, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'species_thermo at T = 0')
    call mech%mixture_properties(ref_T, 0.0_c_double, ref_Y, density, cp, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. ieee_is_nan(density) .and. ieee_is_nan(cp), &
               'mixture_properties at P = 0 gives NaN')
    call mech%concentrations(ref_T, -ref_P, ref_Y, C, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'concentrations at P < 0')

    call mech%net_production_rates(ref_T, ref_C, short, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'net_production_rates with wdot(nspecies - 1)')
    call check(index(opsplit_last_error(), 'wdot has 9 values but the mechanism has nspecies = 10') > 0, &
               'the message says the size: ' // opsplit_last_error())
    call mech%net_production_rates(ref_T, short, wdot, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'net_production_rates with C(nspecies - 1)')
    call mech%molar_masses(short, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'molar_masses with W(nspecies - 1)')
    call mech%species_thermo(ref_T, s_R=short, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'species_thermo with s_R(nspecies - 1)')
    call mech%mixture_properties(ref_T, ref_P, short, density, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. ieee_is_nan(density), &
               'mixture_properties with Y(nspecies - 1)')
    call mech%concentrations(ref_T, ref_P, ref_Y, short, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'concentrations with C(nspecies - 1)')
    call mech%rates_of_progress(ref_T, ref_C, forward=qf, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'rates_of_progress with forward(nreactions - 1)')
    call check(index(opsplit_last_error(), 'nreactions = 29') > 0, 'the message says nreactions: ' // &
               opsplit_last_error())

    text = mech%equation(0, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. text == '', 'equation(0)')
    call check(index(opsplit_last_error(), '1-based') > 0, 'the message says 1-based: ' // opsplit_last_error())
    text = mech%equation(30, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. text == '', 'equation(30) of 29')

    C = ref_C
    C(3) = ieee_nan()
    call mech%net_production_rates(ref_T, C, again, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a NaN concentration')
    call check(index(opsplit_last_error(), 'concentrations[2]=nan') > 0, 'the message names the entry: ' // &
               opsplit_last_error())

    call mech%add_species('XX', stat=status)
    call check(status == OPSPLIT_ERROR_UNSUPPORTED, 'add_species on a loaded mechanism')
    call mech%add_reaction([1], [2], stat=status)
    call check(status == OPSPLIT_ERROR_UNSUPPORTED, 'add_reaction on a loaded mechanism')
    call mech%set_rate(1, OPSPLIT_RATE_CONSTANT, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_UNSUPPORTED, 'set_rate on a loaded mechanism')
    call mech%counts(nspecies, nreactions)
    call check(nspecies == 10 .and. nreactions == 29, 'refused edits changed nothing')

    ! After all that, the same numbers.
    again = 0.0_c_double
    call mech%net_production_rates(ref_T, ref_C, again, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. all(again == wdot), 'the mechanism still works after the failures')
    call check(mech%equation(1) == '2 O + M <=> O2 + M', 'and still has its equations')

    ! A file that is not there: IO, and the object stays empty and usable.
    call missing%load_yaml(ctx, h2o2_path // '.missing', stat=status)
    call check(status == OPSPLIT_ERROR_IO .and. .not. missing%created(), 'load of a missing file gives IO')
    call check(index(opsplit_last_error(), 'opsplit_mechanism_load_yaml:') == 1, 'the message names the function: ' &
               // opsplit_last_error())
    call missing%load_yaml(ctx, h2o2_path, 'no_such_phase', stat=status)
    call check(status == OPSPLIT_ERROR_PARSE .and. .not. missing%created(), 'load of a missing phase gives PARSE')
    call check(missing%kind(stat=status) == -1 .and. status == OPSPLIT_ERROR_INVALID_HANDLE, &
               'kind of a mechanism never loaded')
    call missing%load_yaml(ctx, h2o2_path, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. missing%created(), 'the same object then loads a file')
    call missing%net_production_rates(ref_T, ref_C, again, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. all(again == wdot), 'and gives the same rates')
    call missing%destroy()

    call mech%destroy()
    call mech%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS .and. .not. mech%created(), 'destroy twice is fine')
    call mech%net_production_rates(ref_T, ref_C, again, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'net_production_rates on a destroyed mechanism')
    text = mech%equation(1, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE .and. text == '', 'equation of a destroyed mechanism')
  end subroutine failures_through_stat

  ! h2o2.inp + h2o2_thermo.dat (Cantera's write_chemkin of h2o2.yaml) through load_chemkin:
  ! the YAML version's net production rates within 1e-14 of creation + destruction (not
  ! bitwise: write_chemkin writes A after Cantera's kmol -> mol conversion, an ulp off),
  ! and Cantera's; failures through stat; features.inp with its own THERMO section.
  ! KPP's small_strato through load_kpp: its counts, a fixed species' reaction, and a
  ! rate at noon against the equation's (2.643E-10)*SUN**3 times the fixed O2.
  subroutine kpp_version()
    type(opsplit_mechanism_t) :: kpp
    integer(c_int) :: nspecies, nreactions, nparams
    real(c_double) :: y(5), p(3), ydot(5)
    call kpp%load_kpp(ctx, kpp_path)
    call kpp%counts(nspecies, nreactions, nparams)
    call check(nspecies == 5 .and. nreactions == 10 .and. nparams == 3, 'small_strato: 5 species, 10 reactions, 3 inputs')
    call check(kpp%equation(1) == '0 => 2 O', 'O2 + hv = 2O: O2 fixed, hv a marker')
    y = 0
    p(kpp%find_parameter('SUN')) = 1.0_c_double
    p(kpp%find_parameter('O2')) = 1.697e16_c_double
    p(kpp%find_parameter('M')) = 8.12e16_c_double
    call kpp%evaluate(y, p, ydot)
    call check(abs(ydot(kpp%find_species('O')) - 2 * 2.643e-10_c_double * 1.697e16_c_double) <= &
               1e-14_c_double * ydot(kpp%find_species('O')), 'small_strato: O made by O2 photolysis alone')
    call kpp%load_kpp(ctx, kpp_path // '.missing', stat=status)
    call check(status /= OPSPLIT_SUCCESS, 'a loaded mechanism is not loaded over')
    call kpp%destroy()
    call kpp%load_kpp(ctx, kpp_path // '.missing', stat=status)
    call check(status == OPSPLIT_ERROR_IO, 'a missing KPP file is IO')
  end subroutine kpp_version

  ! MICM's Chapman configuration through load_micm: its counts, its inputs by name (1-based
  ! numbers), and O2 photolysis making O at 2 jo2_b [O2] when nothing else runs.
  subroutine micm_version()
    type(opsplit_mechanism_t) :: micm
    integer(c_int) :: nspecies, nreactions, nparams
    real(c_double) :: y(5), p(6), ydot(5)
    call micm%load_micm(ctx, micm_path)
    call micm%counts(nspecies, nreactions, nparams)
    call check(nspecies == 5 .and. nreactions == 7 .and. nparams == 6, 'chapman: 5 species, 7 reactions, 6 inputs')
    call check(micm%parameter_name(3) == 'M' .and. micm%parameter_name(4) == 'PHOTO.jo2_b', &
               'chapman: parameter 3 is M, 4 PHOTO.jo2_b')
    call check(micm%find_parameter('PHOTO.jo3_a') == 6, 'chapman: PHOTO.jo3_a is parameter 6')
    y = 0
    y(micm%find_species('O2')) = 0.75_c_double
    p = 0
    p(1) = 220.0_c_double
    p(micm%find_parameter('PHOTO.jo2_b')) = 1e-11_c_double
    call micm%evaluate(y, p, ydot)
    call check(abs(ydot(micm%find_species('O')) - 2 * 1e-11_c_double * 0.75_c_double) <= &
               1e-14_c_double * ydot(micm%find_species('O')), 'chapman: O made by O2 photolysis alone')
    call micm%destroy()
    call micm%load_micm(ctx, micm_path // '.missing', stat=status)
    call check(status == OPSPLIT_ERROR_IO, 'a missing MICM file is IO')
  end subroutine micm_version

  subroutine chemkin_version()
    type(opsplit_mechanism_t) :: ck, yaml, features, missing
    character(len=:), allocatable :: folder
    real(c_double) :: wdot(10), wdot_yaml(10)
    integer(c_int) :: nspecies, nreactions
    integer :: status

    folder = features_path(1:index(features_path, '/', back=.true.))
    call ck%load_chemkin(ctx, folder // 'h2o2.inp', folder // 'h2o2_thermo.dat', stat=status)
    call check(status == OPSPLIT_SUCCESS .and. ck%created(), 'load_chemkin h2o2.inp: ' // opsplit_last_error())
    if (.not. ck%created()) return
    call ck%counts(nspecies, nreactions)
    call check(nspecies == 10 .and. nreactions == 29, 'h2o2.inp: 10 species, 29 reactions')
    call check(ck%kind() == OPSPLIT_MECHANISM_GAS, 'a CHEMKIN mechanism is GAS')
    call check(ck%equation(1) == '2 O + M <=> O2 + M', 'h2o2.inp equation(1): ' // ck%equation(1))
    call check(ck%species_name(10) == 'N2', 'h2o2.inp species 10 is N2')
    call yaml%load_yaml(ctx, h2o2_path)
    call ck%net_production_rates(ref_T, ref_C, wdot)
    call yaml%net_production_rates(ref_T, ref_C, wdot_yaml)
    call check(worst(wdot, wdot_yaml, max(ref_scale, tiny(1.0_c_double))) <= 1e-14_c_double, &
               'CHEMKIN and YAML net production rates agree')
    call check(worst(wdot, ref_wdot, max(ref_scale, tiny(1.0_c_double))) <= 1e-10_c_double, &
               'CHEMKIN net production rates are those of Cantera')

    call ck%load_chemkin(ctx, folder // 'h2o2.inp', folder // 'h2o2_thermo.dat', stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'load_chemkin on a created object is refused')
    call missing%load_chemkin(ctx, folder // 'h2o2.inp', stat=status)
    call check(status == OPSPLIT_ERROR_PARSE .and. .not. missing%created(), 'h2o2.inp without its thermo file')
    call check(index(opsplit_last_error(), 'opsplit_mechanism_load_chemkin:') == 1 .and. &
               index(opsplit_last_error(), 'h2o2.inp:') > 0 .and. index(opsplit_last_error(), 'no thermo data') > 0, &
               'the message names the file, the line and the species: ' // opsplit_last_error())
    call missing%load_chemkin(ctx, folder // 'no_such.inp', '', stat=status)
    call check(status == OPSPLIT_ERROR_IO .and. .not. missing%created(), 'a missing CHEMKIN file gives IO')
    call missing%load_chemkin(ctx, folder // 'h2o2.inp', folder // 'no_such_thermo.dat', stat=status)
    call check(status == OPSPLIT_ERROR_IO .and. .not. missing%created(), 'a missing thermo file gives IO')

    call features%load_chemkin(ctx, folder // 'features.inp', stat=status)
    call check(status == OPSPLIT_SUCCESS, 'load_chemkin features.inp (its own THERMO): ' // opsplit_last_error())
    call features%counts(nspecies, nreactions, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. nspecies == 10 .and. nreactions == 20, 'features.inp: 10 and 20')
    call features%destroy()
    call features%load_chemkin(ctx, folder // 'features.inp', '', stat=status)
    call check(status == OPSPLIT_SUCCESS, 'load_chemkin features.inp with an empty thermo_path')
    call features%destroy()
    call yaml%destroy()
    call ck%destroy()
  end subroutine chemkin_version

  ! features.yaml (every rate form) loads; a built mechanism refuses gas queries.
  subroutine other_mechanisms()
    type(opsplit_mechanism_t) :: features, built
    integer(c_int) :: nspecies, nreactions
    integer :: status
    real(c_double) :: W(2), C(2), wdot(2)

    call features%load_yaml(ctx, features_path, 'features', stat=status)
    call check(status == OPSPLIT_SUCCESS, 'load features.yaml: ' // opsplit_last_error())
    call features%counts(nspecies, nreactions, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. nspecies == 10 .and. nreactions == 16, 'features.yaml: 10 and 16')
    call check(features%kind() == OPSPLIT_MECHANISM_GAS, 'features.yaml is GAS')
    call features%destroy()

    call built%create(ctx)
    call built%add_species('A')
    call built%add_species('B')
    call built%add_reaction([1], [2])
    call check(built%kind() == OPSPLIT_MECHANISM_BUILT, 'a created mechanism is BUILT')
    call check(built%equation(1) == 'A => B', 'a built reaction reads A => B: ' // built%equation(1))
    call built%molar_masses(W, stat=status)
    call check(status == OPSPLIT_ERROR_UNSUPPORTED, 'molar_masses of a built mechanism')
    C = 1.0_c_double
    call built%net_production_rates(300.0_c_double, C, wdot, stat=status)
    call check(status == OPSPLIT_ERROR_UNSUPPORTED, 'net_production_rates of a built mechanism')
    call built%mixture_properties(300.0_c_double, 1e5_c_double, [0.5_c_double, 0.5_c_double], stat=status)
    call check(status == OPSPLIT_ERROR_UNSUPPORTED, 'mixture_properties of a built mechanism')
    call built%add_species('C', stat=status)
    call check(status == OPSPLIT_SUCCESS, 'the built mechanism can still be edited')
    call built%destroy()
  end subroutine other_mechanisms

  ! A constant-pressure H2/O2 reactor through opsplit_ode_t%set_reactor: the wrong
  ! neq is refused, and 1 ms from 1001 K (Cantera's delay: 0.3155 ms) ignites the mixture
  ! while its mass fractions keep summing to one.
  subroutine ignition_reactor()
    type(opsplit_mechanism_t) :: gas
    type(opsplit_ode_t) :: wrong, ode
    real(c_double) :: y(11)
    call gas%load_yaml(ctx, h2o2_path, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'load h2o2.yaml for the reactor: ' // opsplit_last_error())
    call wrong%create(ctx, 10, 1, 1)
    call wrong%set_reactor(gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a 10-equation batch for an 11-equation reactor')
    call wrong%destroy()
    call ode%create(ctx, 11, 1, 1)
    call ode%set_reactor(gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'set_reactor: ' // opsplit_last_error())
    y(1) = 1001.0_c_double
    y(2:11) = ref_Y_ignition()
    call ode%set_state(reshape(y, [11, 1]), OPSPLIT_ODE_AOS)
    call ode%set_parameters(reshape([101325.0_c_double], [1, 1]), OPSPLIT_ODE_AOS)
    call ode%integrate(0.0_c_double, 1e-3_c_double, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'integrate the reactor: ' // opsplit_last_error())
    block
      real(c_double) :: out(11, 1)
      call ode%get_state(out, OPSPLIT_ODE_AOS)
      call check(out(1, 1) > 2000.0_c_double, 'the mixture ignited within 1 ms')
      call check(abs(sum(out(2:11, 1)) - 1.0_c_double) < 1e-9_c_double, 'mass fractions sum to one')
    end block
    call ode%destroy()
    call gas%destroy()
  end subroutine ignition_reactor

  ! opsplit_ode_t%evaluate and %set_jacobian on a constant-pressure H2/O2 reactor of two
  ! systems at 1 and 2 atm, at 1400 K with every species present: the analytic Jacobian
  ! against central differences of evaluate's own ydot (each column within 1e-5 of its
  ! largest entry: the step's truncation is ~1e-8 of it), the pressure of the system asked
  ! for, the finite-difference Jacobian close to the analytic one but not equal to it, and
  ! bad arguments refused with nothing written.
  subroutine reactor_jacobian()
    type(opsplit_mechanism_t) :: gas
    type(opsplit_ode_t) :: ode
    real(c_double) :: y(11), yp(11), ym(11), f(11), f1(11), fp(11), fm(11), jac(11, 11), fd(11, 11), &
                      column_error, worst, h, differs, kept(11)
    real(c_double), allocatable :: flat(:, :)
    integer :: j
    call gas%load_yaml(ctx, h2o2_path, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'load h2o2.yaml for evaluate: ' // opsplit_last_error())
    call ode%create(ctx, 11, 2, 1)
    call ode%evaluate(1, 0.0_c_double, y, f, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'evaluate without a right-hand side is refused')
    call ode%set_reactor(gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE)
    call ode%set_parameters(reshape([101325.0_c_double, 202650.0_c_double], [1, 2]), OPSPLIT_ODE_AOS)
    y(1) = 1400.0_c_double
    y(2:11) = 0.9_c_double * ref_Y_ignition() + 0.01_c_double
    call ode%evaluate(2, 0.0_c_double, y, f, jac, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'evaluate system 2: ' // opsplit_last_error())
    call ode%evaluate(1_c_int64_t, 0.0_c_double, y, f1, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'evaluate system 1 (an integer(c_int64_t) index): ' // opsplit_last_error())
    call check(abs(f(1) - f1(1)) > 1e-3_c_double * abs(f1(1)), 'systems 1 and 2 burn at their own pressures')
    worst = 0
    do j = 1, 11
      h = 1e-6_c_double * max(abs(y(j)), 1e-3_c_double)
      yp = y
      ym = y
      yp(j) = y(j) + h
      ym(j) = y(j) - h
      call ode%evaluate(2, 0.0_c_double, yp, fp)
      call ode%evaluate(2, 0.0_c_double, ym, fm)
      fd(:, j) = (fp - fm) / (2 * h)
      column_error = maxval(abs(jac(:, j) - fd(:, j))) / maxval(abs(fd(:, j)))
      worst = max(worst, column_error)
    end do
    call check(worst <= 1e-5_c_double, 'the analytic Jacobian matches central differences column by column')
    print '(a, es9.2)', '[measured] Fortran evaluate: analytic Jacobian vs central differences, worst column ', worst
    call ode%set_jacobian(OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'set_jacobian(FINITE_DIFFERENCE): ' // opsplit_last_error())
    call ode%evaluate(2, 0.0_c_double, y, f, fd)
    differs = maxval(abs(fd - jac)) / maxval(abs(jac))
    call check(differs > 0 .and. differs < 1e-2_c_double, 'the finite-difference Jacobian is close, and not the same')
    call ode%set_jacobian(OPSPLIT_ODE_JACOBIAN_ANALYTIC)
    call ode%set_jacobian(7_c_int, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_jacobian(7) is refused')
    ! Bad arguments: status, and the outputs untouched.
    kept = f
    call ode%evaluate(0, 0.0_c_double, y, f, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), '1-based') > 0, &
               'system 0 is refused (1-based)')
    call ode%evaluate(3, 0.0_c_double, y, f, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'system 3 of 2 is refused')
    call ode%evaluate(1, 0.0_c_double, y(1:10), f, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a state of 10 values is refused')
    allocate(flat(121, 1))
    call ode%evaluate(1, 0.0_c_double, y, f, flat, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a (121, 1) Jacobian is refused')
    deallocate(flat)
    yp = y
    yp(3) = ieee_nan()
    call ode%evaluate(1, 0.0_c_double, yp, f, jac, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a NaN in the state is refused')
    call check(all(f == kept), 'a refused evaluate writes nothing')
    call ode%destroy()
    call ode%evaluate(1, 0.0_c_double, y, f, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'evaluate on a destroyed batch')
    call gas%destroy()
  end subroutine reactor_jacobian

  ! H2:2, O2:1, N2:4 as mass fractions in h2o2.yaml's species order.
  function ref_Y_ignition() result(Y)
    real(c_double) :: Y(10)
    Y = 0.0_c_double
    Y(1) = 2.0_c_double * 2.016_c_double
    Y(4) = 31.998_c_double
    Y(10) = 4.0_c_double * 28.014_c_double
    Y = Y / sum(Y)
  end function ref_Y_ignition

  real(c_double) function ieee_nan()
    ieee_nan = ieee_value(0.0_c_double, ieee_quiet_nan)
  end function ieee_nan

end program test_fortran_gas
