/* Exits with status 3: QEMU must exit with 3 too (semihosting SYS_EXIT_EXTENDED). */
#include <stdio.h>

int main(void)
{
    printf("exiting with 3\n");
    return 3;
}
