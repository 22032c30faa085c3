// jet::distributed with MPI: one rank per MPI process. Header-only, so that libjet needs no
// MPI; include it in a program built with MPI (mpicxx, or CMake's MPI::MPI_CXX).
//   MPI_Init(&argc, &argv);
//   jet::device_guard on(local_rank);   // one GPU a process
//   auto comm = jet::distributed::mpi_communicator(MPI_COMM_WORLD);
#pragma once

#include <mpi.h>

#include <string>

#include "jet/distributed.hpp"

namespace jet::distributed {

// A communicator of every process of `world`, rank i being MPI rank i, on each process's
// current device: rank 0 makes the unique id and MPI broadcasts it. Throws jet::error when an
// MPI call fails.
inline communicator mpi_communicator(MPI_Comm world) {
  int rank = 0, size = 0;
  if (MPI_Comm_rank(world, &rank) != MPI_SUCCESS || MPI_Comm_size(world, &size) != MPI_SUCCESS)
    throw error("mpi_communicator: MPI_Comm_rank or MPI_Comm_size failed");
  unique_id id;
  if (rank == 0) id = make_unique_id();
  if (MPI_Bcast(id.bytes.data(), static_cast<int>(id.bytes.size()), MPI_BYTE, 0, world) !=
      MPI_SUCCESS)
    throw error("mpi_communicator: MPI_Bcast of the unique id failed on rank " +
                std::to_string(rank));
  return communicator(id, size, rank);
}

}  // namespace jet::distributed
