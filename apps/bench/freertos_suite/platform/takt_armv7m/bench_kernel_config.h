/* The suite's FreeRTOSConfig.h settings that only Takt's FreeRTOS layer reads. */
#ifndef BENCH_KERNEL_CONFIG_H
#define BENCH_KERNEL_CONFIG_H

/* The policy comes from the build (one program per policy). */
#ifndef configTAKT_POLICY
#define configTAKT_POLICY TAKT_POLICY_FP
#endif
/* Driver, idle, 31 Timeout-1 fillers and the test's own tasks. */
#define configTAKT_MAX_TASKS 40
#define configTAKT_TRACE_EVENTS 0

#endif
