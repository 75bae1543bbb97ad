# takt_add_kernel(NAME CONFIG_DIR PORT)
#   Builds the kernel and the port as static library NAME, configured by the
#   takt_config.h in CONFIG_DIR. The kernel is compiled once per configuration
#   because a configured-off feature must cost nothing.
set(TAKT_ROOT ${CMAKE_CURRENT_LIST_DIR}/..)

set(TAKT_KERNEL_SOURCES
  ${TAKT_ROOT}/kernel/ds/pq_sorted_list.c
  ${TAKT_ROOT}/kernel/ds/pq_heap.c
  ${TAKT_ROOT}/kernel/ds/pq_rbtree.c
  ${TAKT_ROOT}/kernel/sched/core.c
  ${TAKT_ROOT}/kernel/sched/policy_fp.c
  ${TAKT_ROOT}/kernel/sched/policy_fp_list.c
  ${TAKT_ROOT}/kernel/sched/policy_fp_hwpq.c
  ${TAKT_ROOT}/kernel/sched/edf_common.c
  ${TAKT_ROOT}/kernel/sched/policy_edf_pq.c
  ${TAKT_ROOT}/kernel/sched/policy_edf_mlist.c
  ${TAKT_ROOT}/kernel/sched/policy_hsf.c
  ${TAKT_ROOT}/kernel/services/kernel.c
  ${TAKT_ROOT}/kernel/services/task.c
  ${TAKT_ROOT}/kernel/services/task_lookup.c
  ${TAKT_ROOT}/kernel/services/task_info.c
  ${TAKT_ROOT}/kernel/services/job.c
  ${TAKT_ROOT}/kernel/services/time.c
  ${TAKT_ROOT}/kernel/services/trace.c
  ${TAKT_ROOT}/kernel/services/sync/wait.c
  ${TAKT_ROOT}/kernel/services/sync/sem.c
  ${TAKT_ROOT}/kernel/services/sync/mutex.c
  ${TAKT_ROOT}/kernel/services/sync/queue.c
  ${TAKT_ROOT}/kernel/services/sync/queue_set.c
  ${TAKT_ROOT}/kernel/services/sync/event_group.c
  ${TAKT_ROOT}/kernel/services/sync/notify.c
  ${TAKT_ROOT}/kernel/services/sync/soft_timer.c
  ${TAKT_ROOT}/kernel/services/sync/stream.c
  ${TAKT_ROOT}/kernel/services/server.c
)

# What any program on the Cortex-M boards links, whatever kernel it runs (the
# FreeRTOS build of the benchmark suite too): vectors and reset, the C
# library's system calls over semihosting, the busy loop of known length.
set(TAKT_ARM_BOARD_SOURCES
  ${TAKT_ROOT}/port/armv7m/startup.c
  ${TAKT_ROOT}/port/armv7m/semihost.c
  ${TAKT_ROOT}/port/armv7m/spin.c)

function(takt_add_kernel NAME CONFIG_DIR PORT)
  set(port_interface_sources "")
  set(port_includes "")
  if(PORT STREQUAL "sim")
    # The sim's platform has the hardware priority queue, as its C model.
    set(port_sources ${TAKT_ROOT}/port/sim/port_sim.c ${TAKT_ROOT}/port/sim/port_sim_hwpq.c
      ${TAKT_ROOT}/hw/model/hwpq_model.c ${TAKT_ROOT}/kernel/ds/pq_hw.c)
    set(port_includes ${TAKT_ROOT}/hw/include ${TAKT_ROOT}/hw/model)
  elseif(PORT STREQUAL "armv7m")
    # Compiled into each program (not the archive): the C library's system
    # calls and the vector table must be linked whatever the link order.
    set(port_sources "")
    set(port_interface_sources
      ${TAKT_ROOT}/port/armv7m/port_armv7m.c ${TAKT_ROOT}/port/armv7m/boot.c
      ${TAKT_ROOT}/port/armv7m/work.c ${TAKT_ARM_BOARD_SOURCES})
    set(port_includes ${TAKT_BOARD_DIR})
  else()
    message(FATAL_ERROR "takt_add_kernel: unknown port '${PORT}'")
  endif()
  add_library(${NAME} STATIC ${TAKT_KERNEL_SOURCES} ${port_sources})
  # queue.c's sends and receives keep the lock's key across calls made only
  # on their rare paths (memcpy of a long item, a timed waiter's wake, ...);
  # GCC would keep it in a call-clobbered register and save it around those
  # calls, which costs every call a stack frame (docs/benchmarks.md).
  if(CMAKE_C_COMPILER_ID STREQUAL "GNU")
    set_source_files_properties(${TAKT_ROOT}/kernel/services/sync/queue.c
      PROPERTIES COMPILE_OPTIONS -fno-caller-saves)
  endif()
  target_include_directories(${NAME} PUBLIC
    ${CONFIG_DIR}
    ${TAKT_ROOT}/kernel/include
    ${TAKT_ROOT}/kernel
    ${TAKT_ROOT}/port
    ${TAKT_ROOT}/port/${PORT}/include
    ${port_includes})
  if(port_interface_sources)
    target_sources(${NAME} INTERFACE ${port_interface_sources})
  endif()
endfunction()

# Kernel library NAME's timers in QUEUE ("list", "hwpq") instead of its
# configuration's heap, for the runners' takt-runner-timers-<queue>: on the
# hardware priority queue at the tasks its timer unit holds (the runners'
# takt_config.h says why 256; tools/takt/sim.py's TIMERS_HWPQ_MAX_TASKS).
function(takt_kernel_timer_queue NAME QUEUE)
  if(QUEUE STREQUAL "hwpq")
    target_compile_definitions(${NAME} PUBLIC TAKT_CONFIG_MAX_TASKS=256
      TAKT_CONFIG_TIMER_QUEUE=TAKT_PQ_HW)
  else()
    string(TOUPPER ${QUEUE} upper)
    target_compile_definitions(${NAME} PUBLIC TAKT_CONFIG_TIMER_QUEUE=TAKT_PQ_${upper})
  endif()
endfunction()

# A Cortex-M kernel library NAME (takt_add_kernel ... armv7m) with the
# hardware priority queue emulated by hw/'s model, SysTick stopped while it
# runs (port/armv7m/hwpq_emulated.c): its driver, the hwpq policies and the
# TAKT_PQ_HW timer queue build; the benchmarks measure them in instructions.
function(takt_arm_emulate_hwpq NAME)
  target_compile_definitions(${NAME} PUBLIC TAKT_ARM_HWPQ_EMULATED)
  target_sources(${NAME} PRIVATE ${TAKT_ROOT}/port/armv7m/hwpq_emulated.c
    ${TAKT_ROOT}/hw/model/hwpq_model.c ${TAKT_ROOT}/kernel/ds/pq_hw.c)
  target_include_directories(${NAME} PUBLIC ${TAKT_ROOT}/hw/include ${TAKT_ROOT}/hw/model)
endfunction()
