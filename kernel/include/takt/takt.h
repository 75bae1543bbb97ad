/* Takt — the whole public API of the kernel. */
#ifndef TAKT_H
#define TAKT_H

#include "takt/config_check.h"
#include "takt/kernel.h"
#include "takt/server.h"
#include "takt/task.h"
#include "takt/trace.h"
#include "takt/types.h"

#endif
