# Copies examples/freertos_app to a fresh directory outside the source tree,
# configures it against this Takt tree, builds it, runs it and checks its
# output: Takt used as a drop-in FreeRTOS by an application of its own.
execute_process(COMMAND mktemp -d RESULT_VARIABLE rc OUTPUT_VARIABLE tmp OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mktemp failed")
endif()
string(FIND "${tmp}" "${TAKT_DIR}" inside)
if(NOT inside EQUAL -1)
  message(FATAL_ERROR "temporary directory ${tmp} is inside the tree")
endif()
file(COPY ${TAKT_DIR}/examples/freertos_app DESTINATION ${tmp})
set(app ${tmp}/freertos_app)

function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE_RECURSE ${tmp})
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

# BOARD set (with QEMU, the command line up to -kernel): the same application
# for a Cortex-M board with the ARM toolchain, run on the emulated board.
if(BOARD)
  step(${CMAKE_COMMAND} -S ${app} -B ${app}/build -G ${GENERATOR}
       -DCMAKE_TOOLCHAIN_FILE=${TAKT_DIR}/cmake/toolchain-arm-none-eabi.cmake
       -DCMAKE_BUILD_TYPE=Release -DTAKT_DIR=${TAKT_DIR} -DTAKT_PORT=armv7m -DTAKT_BOARD=${BOARD})
  step(${CMAKE_COMMAND} --build ${app}/build -j2)
  separate_arguments(qemu UNIX_COMMAND "${QEMU}")
  step(${qemu} -kernel ${app}/build/freertos_app)
else()
  step(${CMAKE_COMMAND} -S ${app} -B ${app}/build -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER}
       -DTAKT_DIR=${TAKT_DIR} -DTAKT_PORT=sim)
  step(${CMAKE_COMMAND} --build ${app}/build -j2)
  step(${app}/build/freertos_app)
endif()
file(REMOVE_RECURSE ${tmp})
message("${step_output}")
set(expected "\\[ 20 ms\\] reading 1\n\\[ 40 ms\\] reading 2\n\\[ 60 ms\\] reading 3\n\\[ 80 ms\\] reading 4\n\\[100 ms\\] reading 5\n\\[100 ms\\] heartbeats 10\nfreertos_app: OK\n")
if(NOT step_output MATCHES "^${expected}$")
  message(FATAL_ERROR "unexpected output from the out-of-tree application")
endif()
message("out-of-tree application: built and ran as expected")
