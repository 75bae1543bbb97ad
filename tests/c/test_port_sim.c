/*
 * The sim port's keyed critical sections (port.h): a key is the nesting depth
 * its section found, and an exit with any other section's key, or with no
 * section open, stops the run (a kernel bug). The abort cases run in a child
 * process. No run is in progress, so no switch is taken at an exit.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h" /* the kernel's hooks, CHECK */
#include "port.h"

static void keys_are_depths(void)
{
    port_critical_t outer = port_critical_enter();
    port_critical_t inner = port_critical_enter();
    CHECK_EQ(outer, 0);
    CHECK_EQ(inner, 1);
    port_critical_exit(inner);
    CHECK_EQ(port_critical_enter(), 1); /* the same depth again */
    port_critical_exit(1);
    port_critical_exit(outer);
    CHECK_EQ(port_critical_enter(), 0); /* every section closed */
    port_critical_exit(0);
}

static void exit_outer_first(void)
{
    port_critical_t outer = port_critical_enter();
    (void)port_critical_enter();
    port_critical_exit(outer);
}

static void exit_without_enter(void)
{
    port_critical_exit(0);
}

/* True if body, run in a child, ends with abort(). */
static bool aborts(void (*body)(void))
{
    fflush(NULL);
    pid_t child = fork();
    if (child == 0) {
        body();
        _exit(0);
    }
    int status = 0;
    if (child < 0 || waitpid(child, &status, 0) != child) {
        return false;
    }
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

int main(void)
{
    keys_are_depths();
    CHECK(aborts(exit_outer_first));
    CHECK(aborts(exit_without_enter));
    CHECK(!aborts(keys_are_depths));
    return CHECK_SUMMARY();
}
