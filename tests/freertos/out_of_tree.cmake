# Takt as a drop-in FreeRTOS for an application of its own, built outside the
# source tree, twice, in a fresh directory:
#  1. examples/freertos_app with its own CMakeLists.txt;
#  2. the same main.c and FreeRTOSConfig.h with the CMakeLists.txt that
#     docs/freertos.md shows, built and run by the commands it shows (sim, or
#     with BOARD the Cortex-M ones), so the page cannot drift from what works.
# Each run's output must be the application's transcript.
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
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${tmp}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE_RECURSE ${tmp})
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(expected "\\[ 20 ms\\] reading 1\n\\[ 40 ms\\] reading 2\n\\[ 60 ms\\] reading 3\n\\[ 80 ms\\] reading 4\n\\[100 ms\\] reading 5\n\\[100 ms\\] heartbeats 10\nfreertos_app: OK\n")
function(check_transcript WHAT)
  message("${WHAT}:\n${step_output}")
  if(NOT step_output MATCHES "^${expected}$")
    file(REMOVE_RECURSE ${tmp})
    message(FATAL_ERROR "unexpected output from ${WHAT}")
  endif()
endfunction()

# ---- 1. the example's own CMakeLists.txt ----
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
check_transcript("examples/freertos_app")

# ---- 2. docs/freertos.md's CMakeLists.txt and commands ----
# The page marks each block with an HTML comment "<!-- out_of_tree.cmake: NAME -->"
# just before its fence; the block is the text between that fence and the next.
file(READ ${TAKT_DIR}/docs/freertos.md doc)
function(doc_block NAME OUT)
  set(marker "<!-- out_of_tree.cmake: ${NAME} -->")
  string(FIND "${doc}" "${marker}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "docs/freertos.md has no block marked '${marker}'")
  endif()
  string(SUBSTRING "${doc}" ${at} -1 rest)
  string(FIND "${rest}" "```" fence)
  string(SUBSTRING "${rest}" ${fence} -1 rest)
  string(FIND "${rest}" "\n" eol)
  math(EXPR eol "${eol} + 1")
  string(SUBSTRING "${rest}" ${eol} -1 rest)
  string(FIND "${rest}" "```" fence)
  string(SUBSTRING "${rest}" 0 ${fence} body)
  set(${OUT} "${body}" PARENT_SCOPE)
endfunction()

set(doc_app ${tmp}/my_app)
file(MAKE_DIRECTORY ${doc_app})
file(COPY ${TAKT_DIR}/examples/freertos_app/main.c ${TAKT_DIR}/examples/freertos_app/FreeRTOSConfig.h
     DESTINATION ${doc_app})
doc_block("CMakeLists.txt" cmakelists)
file(WRITE ${doc_app}/CMakeLists.txt "${cmakelists}")

if(BOARD)
  doc_block("board" commands)
  string(REPLACE "mps2-an385" "${BOARD}" commands "${commands}")
else()
  doc_block("sim" commands)
  # The page's configure line names no compiler: the environment's CC picks this build's.
  set(ENV{CC} ${C_COMPILER})
endif()
string(REPLACE "/path/to/takt" "${TAKT_DIR}" commands "${commands}")
if(NOT GENERATOR STREQUAL "Ninja")
  string(REPLACE "-G Ninja" "-G \"${GENERATOR}\"" commands "${commands}")
endif()
# The page's cmake --build takes the generator's own parallelism; the machine is shared.
set(ENV{CMAKE_BUILD_PARALLEL_LEVEL} 2)
# One command a line once the continuations are joined; the last one runs the program.
string(REPLACE "\\\n" " " commands "${commands}")
string(REPLACE "\n" ";" commands "${commands}")
foreach(command IN LISTS commands)
  if(NOT command STREQUAL "")
    message("$ ${command}")
    step(sh -c "${command}")
  endif()
endforeach()
check_transcript("docs/freertos.md's recipe")

file(REMOVE_RECURSE ${tmp})
message("out-of-tree application: built and ran as expected, both ways")
