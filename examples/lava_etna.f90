! The Mt Etna 2006 lava flow with SCIARA-fv2 from Fortran (type(opsplit_ca_t)): the
! dataset's terrain, parameters, vents and emission rates, run day by day with the
! volumes and the mass balance printed; then the covered cells scored against the real
! flow (e1 = sqrt(|R & S| / |R | S|)) and a map written (hillshaded terrain, lava, the
! real flow's outline) by the C helper examples/lava_map.c. The run of
! examples/lava_etna.c, with the substates in the host's own (rows, cols) order.
!
!   lava_etna_fortran [DAYS [fv2|fv3 [DATA_DIR]]]
!
! DAYS days (default 15); fv3: SCIARA-fv3 with the thesis' parameters instead of fv2;
! DATA_DIR holds etna2006/ (default: the data folder, found by the C helper
! examples/example_data.c). Writes lava_etna_f.png in the current directory. Every
! opsplit call passes stat; a failure prints its status and message and stops with
! code 1; a mass balance off by more than 1e-12 stops with code 3.
program lava_etna_fortran
  use opsplit
  use example_data, only: data_folder
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none

  interface
    function lava_map_write(path, altitude, lava, reference, rows, cols, cell, scale) &
        bind(C, name="lava_map_write") result(rc)
      import :: c_char, c_double, c_int, c_int8_t
      character(kind=c_char), intent(in) :: path(*)
      real(c_double), intent(in) :: altitude(*), lava(*)
      integer(c_int8_t), intent(in) :: reference(*)
      integer(c_int), value :: rows, cols
      real(c_double), value :: cell
      integer(c_int), value :: scale
      integer(c_int) :: rc
    end function lava_map_write
    function lava_map_read_mask(path, mask, rows, cols) bind(C, name="lava_map_read_mask") result(count)
      import :: c_char, c_int, c_int8_t, c_long
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int8_t), intent(out) :: mask(*)
      integer(c_int), value :: rows, cols
      integer(c_long) :: count
    end function lava_map_read_mask
  end interface

  integer, parameter :: rows = 378, cols = 517
  ! The substates in Fortran order (rows, cols); the map helper takes C's row-major
  ! order, which is a (cols, rows) array here.
  real(c_double) :: altitude(rows, cols), fluid(rows, cols), solid(rows, cols)
  real(c_double) :: altitude_c(cols, rows), lava_c(cols, rows)
  integer(c_int8_t) :: real_c(cols, rows)
  character(len=4096) :: data
  character(len=1024) :: arg
  integer :: days, day, stat, both, either, covered
  logical :: fv3
  real(c_double) :: emitted, lava, solidified, lost, imbalance, worst, cell
  type(opsplit_context_t) :: ctx
  type(opsplit_ca_t) :: ca

  days = 15
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *, iostat=stat) days
    if (stat /= 0) days = -1
  end if
  fv3 = .false.
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    fv3 = trim(arg) == 'fv3'
    if (.not. fv3 .and. trim(arg) /= 'fv2') days = -1
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, data)
  else
    data = data_folder('etna2006/PARAMETERS.cfg')
  end if
  if (days < 1 .or. command_argument_count() > 3 .or. len_trim(data) == 0) then
    write (error_unit, '(a)') 'usage: lava_etna_fortran [DAYS >= 1 [fv2|fv3 [DATA_DIR]]]'
    stop 2
  end if
  print '(a)', 'data ' // trim(data) // '/etna2006'

  call ctx%create(OPSPLIT_BACKEND_AUTO, stat=stat)
  call check('context')
  if (fv3) then
    call ca%create(ctx, OPSPLIT_CA_SCIARA_FV3, rows, cols, stat=stat)   ! the thesis' parameters
  else
    call ca%create(ctx, OPSPLIT_CA_SCIARA_FV2, rows, cols, stat=stat)
  end if
  call check('create')
  if (.not. fv3) then   ! fv3 keeps its defaults: the file's names are fv2's
    call ca%load_parameters(trim(data) // '/etna2006/PARAMETERS.cfg', stat=stat)
    call check('load_parameters')
  end if
  call ca%load_substate('altitude', trim(data) // '/etna2006/MORPHOLOGY.stt', stat=stat)
  call check('load_substate')
  call ca%load_vents(trim(data) // '/etna2006/VENTS.stt', trim(data) // '/etna2006/EMISSIONS_RATE.stt', stat=stat)
  call check('load_vents')
  call ca%get_parameter('Pc', cell, stat=stat)
  call check('get_parameter')

  write (*, '(a, i0, a, i0, a, i0, a)') 'Etna 2006, SCIARA-fv', merge(3, 2, fv3), ' from Fortran on ', rows, ' x ', &
    cols, ' cells'
  write (*, '(a4, 4a15, a12)') 'day', 'emitted m3', 'fluid m3', 'solid m3', 'lost m3', 'imbalance'
  worst = 0
  do day = 1, days
    call ca%run_until(day * 86400.0_c_double, stat=stat)
    call check('run_until')
    call ca%get_volumes(emitted, lava, solidified, lost, stat=stat)
    call check('get_volumes')
    imbalance = abs(emitted - (lava + solidified + lost)) / emitted
    worst = max(worst, imbalance)
    write (*, '(i4, 4f15.1, es12.2)') day, emitted, lava, solidified, lost, imbalance
  end do

  call ca%get_substate('altitude', altitude, stat=stat)
  call check('get_substate')
  call ca%get_substate('thickness', fluid, stat=stat)
  call check('get_substate')
  call ca%get_substate('solidified', solid, stat=stat)
  call check('get_substate')
  if (lava_map_read_mask(trim(data) // '/etna2006/2006_000000000000_RealEvent.stt' // c_null_char, real_c, &
                         int(rows, c_int), int(cols, c_int)) < 0) stop 1
  altitude_c = transpose(altitude)
  lava_c = transpose(fluid + solid)
  covered = count(lava_c > 0)
  both = count(lava_c > 0 .and. real_c /= 0)
  either = count(lava_c > 0 .or. real_c /= 0)
  write (*, '(a, es9.2)') 'worst imbalance ', worst
  write (*, '(a, i0, a, i0, a, i0, a, f6.4)') 'covered ', covered, ' cells; e1 = sqrt(', both, ' / ', either, &
    ') = ', sqrt(real(both, c_double) / either)
  if (lava_map_write('lava_etna_f.png' // c_null_char, altitude_c, lava_c, real_c, int(rows, c_int), &
                     int(cols, c_int), cell, 2_c_int) /= 0) stop 1
  write (*, '(a)') 'map: lava_etna_f.png'
  call ca%destroy(stat=stat)
  call check('destroy')
  call ctx%destroy(stat=stat)
  call check('context destroy')
  if (worst > 1e-12_c_double) stop 3

contains

  subroutine check(what)
    character(len=*), intent(in) :: what
    if (stat == OPSPLIT_SUCCESS) return
    write (error_unit, '(a)') 'lava_etna_fortran: ' // what // ' failed: ' // &
        opsplit_status_text(int(stat, c_int)) // ': ' // opsplit_last_error()
    stop 1
  end subroutine check

end program lava_etna_fortran
