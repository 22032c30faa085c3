# Installs Jet into a temporary prefix and builds a consumer project against it.
file(REMOVE_RECURSE ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/jet -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DJET_BUILD_TESTS=OFF -DJET_BUILD_BENCH=OFF -DJET_BUILD_EXAMPLES=OFF
    -DCMAKE_INSTALL_PREFIX=${WORK_DIR}/prefix "-DCMAKE_PREFIX_PATH=${PREFIX_PATH}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/jet)
run(${CMAKE_COMMAND} --install ${WORK_DIR}/jet)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install/consumer -B ${WORK_DIR}/consumer -G ${GENERATOR}
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
