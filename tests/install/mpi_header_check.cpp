// Compiles jet/distributed_mpi.hpp against the MPI the build found (tests/CMakeLists.txt).
#include "jet/distributed_mpi.hpp"

jet::distributed::communicator world_communicator() {
  return jet::distributed::mpi_communicator(MPI_COMM_WORLD);
}
