! png_slice.h from Fortran: png_slice_write(path, values, nx, ny, lo, hi) writes an nx x ny
! map of values (x fastest) as a PNG, lo..hi on the colour scale (lo == hi: the range of
! the values); 0 when it was written.
! The path ends with c_null_char.
module png_slice
  use, intrinsic :: iso_c_binding, only: c_char, c_double, c_int
  implicit none
  private
  public :: png_slice_write

  interface
    function png_slice_write(path, values, nx, ny, lo, hi) bind(C, name="png_slice_write") result(rc)
      import :: c_char, c_double, c_int
      character(kind=c_char), intent(in) :: path(*)
      real(c_double), intent(in) :: values(*)
      integer(c_int), value :: nx, ny
      real(c_double), value :: lo, hi
      integer(c_int) :: rc
    end function png_slice_write
  end interface
end module png_slice
