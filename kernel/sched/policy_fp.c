/*
 * Fixed-priority policy: one fixed-priority ready queue (fp_queue.h: a bitmap
 * of FIFO lists), so the pick is two count-leading-zeros instructions
 * whatever the number of tasks or levels. The operations are in policy_fp.h.
 */
#include "policy_fp.h"

fp_queue_t takt_fp_ready;

const takt_policy_t takt_policy_fp = TAKT_POLICY_FP_TABLE;
