! Fortran tests of CA grids through opsplit_ca_t: cells(rows, cols) with 1-based
! indices, a glider placed from RLE moving one cell down and right every 4 generations
! across the torus' edge, a blinker's period on a closed grid, HighLife's rule, and bad
! input through stat (a wrong array shape, a bad rule, a pattern outside the grid) leaving
! the grid as it was. Runs on the backend OPSPLIT_BACKEND names.
program test_fortran_ca
  use opsplit
  use test_checks
  implicit none
  type(opsplit_context_t) :: ctx
  type(opsplit_ca_t) :: ca
  integer(c_int8_t) :: cells(9, 11), expected(9, 11), wrong(11, 9)
  integer(c_int64_t) :: rows, cols
  integer :: stat, k
  character(len=*), parameter :: glider = 'x = 3, y = 3, rule = B3/S23' // achar(10) // 'bob$2bo$3o!'

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call ca%create(ctx, OPSPLIT_CA_LIFE, 9, 11)
  call check(ca%created(), 'create')
  call ca%get_shape(rows, cols)
  call check(rows == 9 .and. cols == 11, 'get_shape')

  ! A glider with its box's top-left at row 2, column 8 (1-based): after 4 k generations
  ! the same shape at (2 + k, 8 + k), wrapped.
  call ca%place_rle(glider, 2, 8)
  call check(ca%population() == 5, 'population of a glider')
  do k = 1, 12
    call ca%step(4)
    call ca%get_cells(cells)
    call place_glider(expected, 2 + k, 8 + k)
    call check(all(cells == expected), 'glider after 4 k generations')
  end do
  call check(ca%steps() == 48_c_int64_t, 'steps')

  ! A blinker on a closed grid: period 2; set_cells with a Fortran array.
  call ca%set_boundary(OPSPLIT_CA_CLOSED)
  cells = 0_c_int8_t
  cells(4:6, 5) = 1_c_int8_t
  call ca%set_cells(cells)
  call ca%step(1)
  call ca%get_cells(expected)
  call check(all(expected(5, 4:6) == 1_c_int8_t) .and. count(expected == 1_c_int8_t) == 3, 'blinker turns')
  call ca%step(1_c_int64_t)
  call ca%get_cells(expected)
  call check(all(expected == cells), 'blinker returns after 2 generations')

  ! Bad input through stat: nothing changes.
  call ca%get_cells(wrong, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'get_cells with a (cols, rows) array')
  call check(index(opsplit_last_error(), 'cells is (11, 9), the grid (9, 11)') > 0, 'its message')
  call ca%set_rule('B3/S2q', stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a Hensel rule')
  call ca%place_rle(glider, 9, 11, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a glider past the closed grid''s corner')
  call ca%place_rle(glider, 0, 1, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'row 0')
  call ca%get_cells(expected)
  call check(all(expected == cells), 'the grid after the refused calls')

  ! HighLife: B36/S23 makes a birth of six neighbours; Conway's rule does not.
  call ca%set_rule('B36/S23')
  cells = 0_c_int8_t
  cells(4, 4:6) = 1_c_int8_t
  cells(6, 4:6) = 1_c_int8_t   ! (5, 5) has 6 live neighbours
  call ca%set_cells(cells)
  call ca%step(1)
  call ca%get_cells(expected)
  call check(expected(5, 5) == 1_c_int8_t, 'B36: birth on 6')
  call ca%set_rule('B3/S23')
  call ca%set_cells(cells)
  call ca%step(1)
  call ca%get_cells(expected)
  call check(expected(5, 5) == 0_c_int8_t, 'B3: no birth on 6')

  call ca%destroy()
  call ca%destroy()
  call check(.not. ca%created(), 'destroy is idempotent')
  call ctx%destroy()
  call report_checks()

contains

  ! The glider bob$2bo$3o with its box's top-left at (r, c) on the 9 x 11 torus.
  subroutine place_glider(grid, r, c)
    integer(c_int8_t), intent(out) :: grid(:, :)
    integer, intent(in) :: r, c
    grid = 0_c_int8_t
    call set_cell(grid, r, c + 1)
    call set_cell(grid, r + 1, c + 2)
    call set_cell(grid, r + 2, c)
    call set_cell(grid, r + 2, c + 1)
    call set_cell(grid, r + 2, c + 2)
  end subroutine place_glider

  subroutine set_cell(grid, r, c)
    integer(c_int8_t), intent(inout) :: grid(:, :)
    integer, intent(in) :: r, c
    grid(modulo(r - 1, size(grid, 1)) + 1, modulo(c - 1, size(grid, 2)) + 1) = 1_c_int8_t
  end subroutine set_cell

end program test_fortran_ca
