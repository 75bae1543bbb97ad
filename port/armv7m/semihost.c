/*
 * The C library's system calls over semihosting (the debugger or QEMU does
 * the I/O on the host): console on the host's stdin/stdout/stderr, files
 * opened by name on the host, exit with a status. Only these newlib hooks are
 * provided; nothing else in the tree calls semihosting.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "takt_armv7m.h"

enum {
    SYS_OPEN = 0x01,
    SYS_CLOSE = 0x02,
    SYS_WRITE = 0x05,
    SYS_READ = 0x06,
    SYS_ISTTY = 0x09,
    SYS_SEEK = 0x0A,
    SYS_FLEN = 0x0C,
    SYS_GET_CMDLINE = 0x15,
    SYS_EXIT = 0x18,
    SYS_EXIT_EXTENDED = 0x20,
};
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

#define MAX_FILES 8
#define HANDLE_CLOSED (-1)

static int host_handles[MAX_FILES]; /* fd -> semihosting handle */
static int handles_ready;

static int semihost(int op, const void *arg)
{
    register int r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static int host_open(const char *name, int mode)
{
    uint32_t block[3] = {(uint32_t)(uintptr_t)name, (uint32_t)mode, (uint32_t)strlen(name)};
    return semihost(SYS_OPEN, block);
}

static void handles_init(void)
{
    if (handles_ready) {
        return;
    }
    handles_ready = 1;
    for (int i = 0; i < MAX_FILES; i++) {
        host_handles[i] = HANDLE_CLOSED;
    }
    host_handles[0] = host_open(":tt", 0);  /* r */
    host_handles[1] = host_open(":tt", 4);  /* w */
    host_handles[2] = host_open(":tt", 8);  /* a: stderr */
}

static int host_handle(int fd)
{
    handles_init();
    return fd >= 0 && fd < MAX_FILES ? host_handles[fd] : HANDLE_CLOSED;
}

void takt_arm_exit(int status)
{
    uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    semihost(SYS_EXIT_EXTENDED, block);
    /* A host without the extended call: success or failure only. */
    semihost(SYS_EXIT, (const void *)(uintptr_t)(status == 0 ? ADP_STOPPED_APPLICATION_EXIT : 0x20023u));
    for (;;) {
    }
}

/* The command line the host passed (QEMU: -semihosting-config arg=...). */
int takt_arm_cmdline(char *buf, int size);
int takt_arm_cmdline(char *buf, int size)
{
    uint32_t block[2] = {(uint32_t)(uintptr_t)buf, (uint32_t)size};
    if (semihost(SYS_GET_CMDLINE, block) != 0) {
        return -1;
    }
    return (int)block[1];
}

void _exit(int status);
void _exit(int status)
{
    takt_arm_exit(status);
}

int _open(const char *name, int flags, ...);
int _open(const char *name, int flags, ...)
{
    handles_init();
    int fd = 3;
    while (fd < MAX_FILES && host_handles[fd] != HANDLE_CLOSED) {
        fd++;
    }
    if (fd == MAX_FILES) {
        errno = EMFILE;
        return -1;
    }
    /* semihosting modes are fopen's: 1 "rb", 3 "r+b", 5 "wb", 7 "w+b", 9 "ab" */
    int mode;
    switch (flags & O_ACCMODE) {
    case O_RDONLY:
        mode = 1;
        break;
    case O_WRONLY:
        mode = (flags & O_APPEND) ? 9 : 5;
        break;
    default:
        mode = (flags & O_TRUNC) ? 7 : 3;
        break;
    }
    int handle = host_open(name, mode);
    if (handle == -1) {
        errno = ENOENT;
        return -1;
    }
    host_handles[fd] = handle;
    return fd;
}

int _close(int fd);
int _close(int fd)
{
    int handle = host_handle(fd);
    if (handle == HANDLE_CLOSED || fd < 3) {
        return fd < 3 ? 0 : (errno = EBADF, -1);
    }
    host_handles[fd] = HANDLE_CLOSED;
    uint32_t block[1] = {(uint32_t)handle};
    return semihost(SYS_CLOSE, block) == 0 ? 0 : -1;
}

int _write(int fd, const void *data, int len);
int _write(int fd, const void *data, int len)
{
    int handle = host_handle(fd);
    if (handle == HANDLE_CLOSED) {
        errno = EBADF;
        return -1;
    }
    uint32_t block[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)data, (uint32_t)len};
    int not_written = semihost(SYS_WRITE, block);
    return not_written < 0 ? -1 : len - not_written;
}

int _read(int fd, void *data, int len);
int _read(int fd, void *data, int len)
{
    int handle = host_handle(fd);
    if (handle == HANDLE_CLOSED) {
        errno = EBADF;
        return -1;
    }
    uint32_t block[3] = {(uint32_t)handle, (uint32_t)(uintptr_t)data, (uint32_t)len};
    int not_read = semihost(SYS_READ, block);
    return not_read < 0 ? -1 : len - not_read;
}

int _lseek(int fd, int offset, int whence);
int _lseek(int fd, int offset, int whence)
{
    int handle = host_handle(fd);
    if (handle == HANDLE_CLOSED || whence != 0) {
        errno = EINVAL;
        return -1;
    }
    uint32_t block[2] = {(uint32_t)handle, (uint32_t)offset};
    return semihost(SYS_SEEK, block) == 0 ? offset : -1;
}

int _fstat(int fd, struct stat *st);
int _fstat(int fd, struct stat *st)
{
    memset(st, 0, sizeof(*st));
    st->st_mode = fd < 3 ? S_IFCHR : S_IFREG;
    return 0;
}

int _isatty(int fd);
int _isatty(int fd)
{
    return fd < 3;
}

int _kill(int pid, int sig);
int _kill(int pid, int sig)
{
    (void)pid;
    (void)sig;
    errno = EINVAL;
    return -1;
}

int _getpid(void);
int _getpid(void)
{
    return 1;
}

extern char __heap_start[], __heap_end[];

void *_sbrk(int increment);
void *_sbrk(int increment)
{
    static char *brk = __heap_start;
    if (increment > __heap_end - brk || increment < __heap_start - brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    char *old = brk;
    brk += increment;
    return old;
}
