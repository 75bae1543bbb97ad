# The synchronisation tests and the schedulers each runs under, shared by the
# sim's ctest (tests/c) and the boards' (tests/target): each test under fixed
# priority, EDF (heap and EDF-L), deferred preemption (tasks non-preemptive,
# switches at points and blocks), inside a server (hsf; test_hsf_sync.c has
# the server-specific cases) and on the one-list fp queue. A variant is its
# TEST_SCHED and TEST_PREEMPT.
set(TAKT_SYNC_TESTS test_sem test_mutex test_mutex_random test_queue test_events test_soft_timer test_stream
  test_suspend_wait test_served_gives_back)
set(TAKT_SYNC_VARIANTS fp edf_heap edf_mlist fp_deferred hsf fp_list)
# On the sim only: fixed priority with its levels indexed by the hardware
# priority queue, which the boards do not have.
set(TAKT_SYNC_SIM_VARIANTS fp_hwpq)
# Also against a kernel with fp bound at compile time (TAKT_CONFIG_POLICY_ONLY),
# as the FreeRTOS layer and the benchmarks build it: its policy calls are
# inline and some paths have a copy of their own (a mutex's unlock that hands
# over and disinherits). Tests named <test>_<variant>_bound.
set(TAKT_SYNC_BOUND_VARIANTS fp fp_deferred)
# On the sim only, every other policy bound the same way (the variant's
# own: the FreeRTOS layer binds whichever configTAKT_POLICY names, and an
# application may bind any with TAKT_CONFIG_POLICY_ONLY), its calls direct
# and the others not linked.
set(TAKT_SYNC_SIM_BOUND_VARIANTS edf_heap edf_mlist edf_rbtree edf_hwpq hsf fp_list fp_hwpq)
# test_events again against that kernel with one notification slot (the
# FreeRTOS layer's default): the cases that use slot 0 alone. Tests named
# test_events_<variant>_one_slot.
set(TAKT_SYNC_ONE_SLOT_VARIANTS fp fp_deferred)
set(sync_variant_fp TAKT_SCHED_FP TAKT_PREEMPT_FULL)
set(sync_variant_edf_heap TAKT_SCHED_EDF_HEAP TAKT_PREEMPT_FULL)
set(sync_variant_edf_mlist TAKT_SCHED_EDF_MLIST TAKT_PREEMPT_FULL)
set(sync_variant_fp_deferred TAKT_SCHED_FP TAKT_PREEMPT_DEFERRED)
set(sync_variant_hsf TAKT_SCHED_HSF TAKT_PREEMPT_FULL)
set(sync_variant_fp_list TAKT_SCHED_FP_LIST TAKT_PREEMPT_FULL)
set(sync_variant_fp_hwpq TAKT_SCHED_FP_HWPQ TAKT_PREEMPT_FULL)
set(sync_variant_edf_rbtree TAKT_SCHED_EDF_RBTREE TAKT_PREEMPT_FULL)
set(sync_variant_edf_hwpq TAKT_SCHED_EDF_HWPQ TAKT_PREEMPT_FULL)

# The DEFINES of variant V, into OUT.
function(takt_sync_variant_defines OUT V)
  list(GET sync_variant_${V} 0 sched)
  list(GET sync_variant_${V} 1 preempt)
  set(${OUT} TEST_SCHED=${sched} TEST_PREEMPT=${preempt} PARENT_SCOPE)
endfunction()

# The TAKT_POLICY_* value that binds variant V's scheduler, into OUT.
function(takt_sync_variant_policy OUT V)
  list(GET sync_variant_${V} 0 sched)
  string(REPLACE "TAKT_SCHED_" "TAKT_POLICY_" policy ${sched})
  set(${OUT} ${policy} PARENT_SCOPE)
endfunction()
