! The examples' data folder from Fortran: the C helper of example_data.h (the data/ of the
! source tree, <prefix>/share/opsplit of an installed example, or $OPSPLIT_DATA_DIR).
module example_data
  use, intrinsic :: iso_c_binding, only: c_char, c_int, c_null_char
  implicit none
  private
  public :: data_folder

  interface
    function example_data_dir(probe, out, capacity) bind(C, name="example_data_dir") result(rc)
      import :: c_char, c_int
      character(kind=c_char), intent(in) :: probe(*)
      character(kind=c_char), intent(out) :: out(*)
      integer(c_int), value :: capacity
      integer(c_int) :: rc
    end function example_data_dir
  end interface

contains

  ! The data folder holding the file `probe` (a path inside it, 'etna2006/VENTS.stt');
  ! blank when the folder's name does not fit.
  function data_folder(probe) result(folder)
    character(len=*), intent(in) :: probe
    character(len=4096) :: folder
    character(kind=c_char) :: buffer(len(folder))
    integer :: i
    folder = ''
    if (example_data_dir(probe // c_null_char, buffer, int(size(buffer), c_int)) /= 0) return
    do i = 1, size(buffer)
      if (buffer(i) == c_null_char) exit
      folder(i:i) = buffer(i)
    end do
  end function data_folder

end module example_data
