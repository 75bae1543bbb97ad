# Target (Cortex-M) builds: one build directory per board.
#   cmake -S . -B build-arm-m3 -G Ninja \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-none-eabi.cmake -DTAKT_BOARD=mps2-an385
# Boards: mps2-an385 (Cortex-M3, QEMU), mps2-an386 (Cortex-M4F, QEMU),
# stm32f407 (Cortex-M4F, builds only).
set(TAKT_BOARD_DIR ${TAKT_ROOT}/port/armv7m/boards/${TAKT_BOARD})
if(NOT EXISTS ${TAKT_BOARD_DIR}/board.h)
  message(FATAL_ERROR "TAKT_BOARD: unknown board '${TAKT_BOARD}' (see port/armv7m/boards)")
endif()

if(TAKT_BOARD STREQUAL "mps2-an385")
  set(TAKT_CPU_FLAGS -mcpu=cortex-m3 -mthumb -mfloat-abi=soft)
  set(TAKT_QEMU_MACHINE mps2-an385)
elseif(TAKT_BOARD STREQUAL "mps2-an386")
  set(TAKT_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
  set(TAKT_QEMU_MACHINE mps2-an386)
else()
  set(TAKT_CPU_FLAGS -mcpu=cortex-m4 -mthumb -mfpu=fpv4-sp-d16 -mfloat-abi=hard)
  set(TAKT_QEMU_MACHINE "")
endif()

add_compile_options(${TAKT_CPU_FLAGS} -ffunction-sections -fdata-sections)
# Debian's arm-none-eabi GCC stdint.h does not set the flag newlib's
# inttypes.h wants before it defines PRId64 and friends.
add_compile_definitions(__int64_t_defined=1)
# The full newlib, not nano: the runner prints 64-bit counters and a float.
add_link_options(${TAKT_CPU_FLAGS} -nostartfiles
  -Wl,--gc-sections -L${TAKT_ROOT}/port/armv7m -T${TAKT_BOARD_DIR}/memory.ld)

# Virtual time under QEMU: one instruction = 2^shift ns. Deterministic.
set(TAKT_QEMU_ICOUNT_SHIFT 0 CACHE STRING "QEMU -icount shift for target tests and runs")
find_program(TAKT_QEMU qemu-system-arm)

# The QEMU command line that runs ELF (the same one takt's toolkit uses).
function(takt_qemu_command OUT ELF)
  set(${OUT} ${TAKT_QEMU} -M ${TAKT_QEMU_MACHINE} -display none -monitor none -serial null
    -semihosting-config enable=on,target=native
    -icount shift=${TAKT_QEMU_ICOUNT_SHIFT},sleep=off -kernel ${ELF} PARENT_SCOPE)
endfunction()

# A target program: linked with the C library over semihosting.
function(takt_target_executable NAME)
  cmake_parse_arguments(T "" "KERNEL" "SOURCES;DEFINES;INCLUDES" ${ARGN})
  add_executable(${NAME} ${T_SOURCES})
  target_link_libraries(${NAME} PRIVATE ${T_KERNEL})
  target_include_directories(${NAME} PRIVATE ${T_INCLUDES})
  if(T_DEFINES)
    target_compile_definitions(${NAME} PRIVATE ${T_DEFINES})
  endif()
  target_link_options(${NAME} PRIVATE -Wl,-Map=$<TARGET_FILE:${NAME}>.map)
endfunction()

# A ctest that runs a target program on the emulated board and reads its
# "N passed, N failed" line.
function(takt_qemu_test NAME)
  if(NOT TAKT_QEMU_MACHINE OR NOT TAKT_QEMU)
    return()
  endif()
  takt_qemu_command(cmd $<TARGET_FILE:${NAME}>)
  add_test(NAME ${NAME} COMMAND ${cmd})
  set_tests_properties(${NAME} PROPERTIES TIMEOUT 120
    PASS_REGULAR_EXPRESSION "[0-9]+ passed, 0 failed"
    FAIL_REGULAR_EXPRESSION "[1-9][0-9]* failed")
endfunction()
