/* Takt — the whole public API of the kernel. */
#ifndef TAKT_H
#define TAKT_H

#include "takt/config_check.h"
#include "takt/event_group.h"
#include "takt/kernel.h"
#include "takt/mutex.h"
#include "takt/notify.h"
#include "takt/queue.h"
#include "takt/queue_set.h"
#include "takt/sem.h"
#include "takt/server.h"
#include "takt/soft_timer.h"
#include "takt/stream.h"
#include "takt/sync.h"
#include "takt/task.h"
#include "takt/trace.h"
#include "takt/types.h"

#endif
