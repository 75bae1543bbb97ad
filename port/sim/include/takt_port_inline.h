/*
 * The sim port inlines nothing: port.h declares its contract functions and
 * port_sim.c defines them (the host build measures behaviour, not speed).
 */
#ifndef TAKT_PORT_INLINE_H
#define TAKT_PORT_INLINE_H
#endif
