# The FreeRTOS layer: Takt built for an application's FreeRTOSConfig.h.
#
# takt_add_freertos(NAME CONFIG_DIR <dir> [PORT <port>] [DEFINES <d>...])
#   One static library NAME: the kernel, the port and the FreeRTOS layer,
#   configured by the FreeRTOSConfig.h in CONFIG_DIR (the kernel's takt_config.h
#   is derived from it: compat/freertos/config/takt_config.h). Link NAME and
#   include "FreeRTOS.h". PORT defaults to TAKT_PORT, else sim. DEFINES are
#   compile definitions for the kernel and the application alike (e.g. to pick
#   configTAKT_POLICY per build when FreeRTOSConfig.h leaves it open).
# Recipe: docs/freertos.md.
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/takt.cmake)
set(TAKT_FREERTOS_DIR ${CMAKE_CURRENT_LIST_DIR})

function(takt_add_freertos NAME)
  cmake_parse_arguments(F "" "CONFIG_DIR;PORT" "DEFINES" ${ARGN})
  if(NOT F_CONFIG_DIR OR NOT EXISTS ${F_CONFIG_DIR}/FreeRTOSConfig.h)
    message(FATAL_ERROR "takt_add_freertos(${NAME}): CONFIG_DIR must name the directory of FreeRTOSConfig.h")
  endif()
  if(NOT F_PORT)
    if(TAKT_PORT)
      set(F_PORT ${TAKT_PORT})
    else()
      set(F_PORT sim)
    endif()
  endif()
  takt_add_kernel(${NAME} ${TAKT_FREERTOS_DIR}/config ${F_PORT})
  # A port that needs set-up before takt_init has its glue under port/<port>/.
  set(glue ${TAKT_FREERTOS_DIR}/port/${F_PORT}/compat_port.c)
  if(NOT EXISTS ${glue})
    set(glue ${TAKT_FREERTOS_DIR}/port/generic/compat_port.c)
  endif()
  target_sources(${NAME} PRIVATE
    ${TAKT_FREERTOS_DIR}/src/scheduler.c
    ${TAKT_FREERTOS_DIR}/src/tasks.c
    ${TAKT_FREERTOS_DIR}/src/task_info.c
    ${TAKT_FREERTOS_DIR}/src/task_format.c
    ${TAKT_FREERTOS_DIR}/src/task_local.c
    ${TAKT_FREERTOS_DIR}/src/notify.c
    ${TAKT_FREERTOS_DIR}/src/queue.c
    ${TAKT_FREERTOS_DIR}/src/queue_info.c
    ${TAKT_FREERTOS_DIR}/src/stream_buffer.c
    ${TAKT_FREERTOS_DIR}/src/event_groups.c
    ${TAKT_FREERTOS_DIR}/src/timers.c
    ${TAKT_FREERTOS_DIR}/src/heap.c
    ${TAKT_FREERTOS_DIR}/src/heap_regions.c
    ${TAKT_FREERTOS_DIR}/src/server.c
    ${TAKT_FREERTOS_DIR}/src/trace_hook.c
    ${TAKT_FREERTOS_DIR}/src/tickless.c
    ${TAKT_FREERTOS_DIR}/src/static_memory.c
    ${glue})
  target_include_directories(${NAME} PUBLIC ${F_CONFIG_DIR} ${TAKT_FREERTOS_DIR}/include)
  target_include_directories(${NAME} PRIVATE ${TAKT_FREERTOS_DIR}/src)
  if(F_DEFINES)
    target_compile_definitions(${NAME} PUBLIC ${F_DEFINES})
  endif()
  set_target_properties(${NAME} PROPERTIES C_STANDARD 11 C_EXTENSIONS ON)
endfunction()
