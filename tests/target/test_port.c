#include <stdio.h>
#include "check.h"
#include "takt/takt.h"
#include "takt_armv7m.h"

int main(void)
{
    printf("hello from %u Hz\n", (unsigned)takt_arm_core_hz());
    CHECK(1);
    return CHECK_SUMMARY();
}
