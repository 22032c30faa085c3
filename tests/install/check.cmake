# Installs Jet into a temporary prefix and builds a consumer project against it.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()
# Everything links with --no-as-needed, so that each library on a link line is needed at run
# time: none may be the GPU driver's libcuda, which a machine without a GPU lacks.
set(no_as_needed -Wl,--no-as-needed)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/jet -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DJET_BUILD_TESTS=OFF -DJET_BUILD_BENCH=OFF -DJET_BUILD_EXAMPLES=OFF
    -DCMAKE_SHARED_LINKER_FLAGS=${no_as_needed} -DCMAKE_EXE_LINKER_FLAGS=${no_as_needed}
    -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/jet)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/jet)
# A consumer needs only Jet: the packages behind Jet's private dependencies are made
# unfindable, so that a jetConfig.cmake asking for any of them fails the configure.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_OpenSSL=ON -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON -DCMAKE_EXE_LINKER_FLAGS=${no_as_needed})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
# Both run from where they are, finding the installed libjet (and it the CUDA libraries)
# through their run paths.
run(${WORK_DIR}/consumer/consumer)
run(${WORK_DIR}/prefix/bin/jet-cache --help)
# README: Jet's binaries never need libcuda (the CUDA runtime loads the driver when there is
# one). Checked on the files too, for machines where the driver is installed.
find_program(READELF readelf)
if(READELF)
  file(GLOB libjet ${WORK_DIR}/prefix/lib*/libjet.so*)
  foreach(binary ${WORK_DIR}/consumer/consumer ${WORK_DIR}/prefix/bin/jet-cache ${libjet})
    execute_process(COMMAND ${READELF} -d ${binary} OUTPUT_VARIABLE dynamic)
    if(dynamic MATCHES "libcuda\\.so")
      message(FATAL_ERROR "${binary} needs libcuda:\n${dynamic}")
    endif()
  endforeach()
endif()
