!> opsplit on MPI for Fortran hosts (opsplit/mpi.h): objects spread over the processes of
!> the communicator the host already has (an integer from `use mpi`, or comm%MPI_VAL
!> from `use mpi_f08`). The objects are module opsplit's types; only their creation is
!> here. Collective calls and their rules: opsplit/mpi.h and docs/API.md.
module opsplit_mpi
  use, intrinsic :: iso_c_binding, only: c_int, c_int64_t, c_ptr, c_null_ptr
  use, intrinsic :: iso_fortran_env, only: error_unit
  use opsplit, only: opsplit_context_t, opsplit_pcpd_t, opsplit_field_t, opsplit_ca_t, opsplit_last_error, &
                     OPSPLIT_ERROR_INVALID_ARGUMENT, OPSPLIT_SUCCESS
  implicit none
  private
  public :: opsplit_mpi_pcpd_create, opsplit_mpi_field_attach, opsplit_mpi_ca_attach

  !> call opsplit_mpi_pcpd_create(pcpd, ctx, comm, algorithm, L, replicas [, stat]):
  !> `replicas` replicas in all, spread over comm's processes (collective); L and
  !> replicas default integers or integer(c_int64_t).
  interface opsplit_mpi_pcpd_create
    module procedure mpi_pcpd_create_i4, mpi_pcpd_create_i8
  end interface opsplit_mpi_pcpd_create

  interface
    function c_mpi_pcpd_create(ctx, comm, algorithm, L, replicas, pcpd) bind(C, name="opsplit_mpi_pcpd_create") &
        result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: comm  ! MPI_Fint
      integer(c_int), value :: algorithm
      integer(c_int64_t), value :: L, replicas
      type(c_ptr), intent(out) :: pcpd
      integer(c_int) :: status
    end function c_mpi_pcpd_create

    function c_mpi_field_attach(field, comm) bind(C, name="opsplit_mpi_field_attach") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: field
      integer(c_int), value :: comm  ! MPI_Fint
      integer(c_int) :: status
    end function c_mpi_field_attach

    function c_mpi_ca_attach(ca, comm) bind(C, name="opsplit_mpi_ca_attach") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca
      integer(c_int), value :: comm  ! MPI_Fint
      integer(c_int) :: status
    end function c_mpi_ca_attach
  end interface

contains

  subroutine mpi_pcpd_create_i4(pcpd, ctx, comm, algorithm, L, replicas, stat)
    type(opsplit_pcpd_t), intent(inout) :: pcpd
    type(opsplit_context_t), intent(in) :: ctx
    integer, intent(in) :: comm, L, replicas
    integer(c_int), intent(in) :: algorithm
    integer, intent(out), optional :: stat
    call mpi_pcpd_create_i8(pcpd, ctx, comm, algorithm, int(L, c_int64_t), int(replicas, c_int64_t), stat)
  end subroutine mpi_pcpd_create_i4

  subroutine mpi_pcpd_create_i8(pcpd, ctx, comm, algorithm, L, replicas, stat)
    type(opsplit_pcpd_t), intent(inout) :: pcpd
    type(opsplit_context_t), intent(in) :: ctx
    integer, intent(in) :: comm
    integer(c_int), intent(in) :: algorithm
    integer(c_int64_t), intent(in) :: L, replicas
    integer, intent(out), optional :: stat
    type(c_ptr) :: handle
    integer(c_int) :: status
    handle = c_null_ptr
    if (pcpd%created()) then
      ! adopt refuses it with the usual message; the C call is not made (no leak).
      call pcpd%adopt(handle, L, OPSPLIT_ERROR_INVALID_ARGUMENT, stat)
      return
    end if
    status = c_mpi_pcpd_create(ctx%c_handle(), int(comm, c_int), algorithm, L, replicas, handle)
    call pcpd%adopt(handle, L, status, stat)
  end subroutine mpi_pcpd_create_i8

  !> Makes `field` this process's subdomain of a field decomposed over `comm`, a
  !> Cartesian communicator (MPI_Cart_create; dimension 1 is x): from then on every
  !> rd%step on it fills the ghosts of faces that border another process from that
  !> process (opsplit/mpi.h). Collective.
  subroutine opsplit_mpi_field_attach(field, comm, stat)
    type(opsplit_field_t), intent(inout) :: field
    integer, intent(in) :: comm
    integer, intent(out), optional :: stat
    call finish_attach(c_mpi_field_attach(field%c_handle(), int(comm, c_int)), stat)
  end subroutine opsplit_mpi_field_attach

  !> Makes `ca`, a CA grid created with this process's block's shape, its block of a
  !> grid decomposed over `comm`, a Cartesian communicator of 1 or 2 dimensions
  !> (dimension 1 splits the rows, 2 the columns; periodic only for a LIFE torus). Attach
  !> before the first vent or step; ca%get_place then says where the block lies
  !> (opsplit/mpi.h). Collective.
  subroutine opsplit_mpi_ca_attach(ca, comm, stat)
    type(opsplit_ca_t), intent(inout) :: ca
    integer, intent(in) :: comm
    integer, intent(out), optional :: stat
    call finish_attach(c_mpi_ca_attach(ca%c_handle(), int(comm, c_int)), stat)
  end subroutine opsplit_mpi_ca_attach

  subroutine finish_attach(status, stat)
    integer(c_int), intent(in) :: status
    integer, intent(out), optional :: stat
    if (present(stat)) then
      stat = int(status)
    else if (status /= OPSPLIT_SUCCESS) then
      write(error_unit, '(a)') 'opsplit: ' // opsplit_last_error()
      error stop
    end if
  end subroutine finish_attach

end module opsplit_mpi
