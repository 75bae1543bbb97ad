/*
 * A tiny check library for the C tests: CHECK(cond), CHECK_EQ(a, b) print
 * file:line and the values on failure and keep going (CHECK_NEAR within a tolerance,
 * CHECK_STREQ for strings); CHECK_SUMMARY() prints
 * "N passed, N failed" and yields the exit status (non-zero on any failure).
 */
#ifndef TAKT_TEST_CHECK_H
#define TAKT_TEST_CHECK_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static unsigned long check_passed_count;
static unsigned long check_failed_count;

static inline bool check_report(bool ok, const char *file, int line, const char *what)
{
    if (ok) {
        check_passed_count++;
    } else {
        check_failed_count++;
        fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
    }
    return ok;
}

static inline bool check_report_eq(int64_t a, int64_t b, const char *file, int line,
                                   const char *sa, const char *sb)
{
    if (a == b) {
        check_passed_count++;
        return true;
    }
    check_failed_count++;
    fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%" PRId64 " != %" PRId64
                    ", 0x%" PRIx64 " != 0x%" PRIx64 ")\n",
            file, line, sa, sb, a, b, (uint64_t)a, (uint64_t)b);
    return false;
}

static inline bool check_report_near(int64_t a, int64_t b, int64_t tolerance, const char *file,
                                     int line, const char *sa, const char *sb)
{
    int64_t off = a - b;
    if (off <= tolerance && -off <= tolerance) {
        check_passed_count++;
        return true;
    }
    check_failed_count++;
    fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s == %s within %" PRId64 " (%" PRId64 " != %" PRId64 ")\n",
            file, line, sa, sb, tolerance, a, b);
    return false;
}

static inline bool check_report_str(const char *a, const char *b, const char *file, int line,
                                    const char *sa, const char *sb)
{
    if (a != NULL && b != NULL && strcmp(a, b) == 0) {
        check_passed_count++;
        return true;
    }
    check_failed_count++;
    fprintf(stderr, "%s:%d: CHECK_STREQ failed: %s == %s\n  got:      \"%s\"\n  expected: \"%s\"\n",
            file, line, sa, sb, a != NULL ? a : "(null)", b != NULL ? b : "(null)");
    return false;
}

#define CHECK(cond) check_report((cond) ? true : false, __FILE__, __LINE__, #cond)
/* Compares as signed 64-bit integers (covers every integer and pointer-free value used). */
#define CHECK_EQ(a, b) \
    check_report_eq((int64_t)(a), (int64_t)(b), __FILE__, __LINE__, #a, #b)

/* a within tolerance of b (both signed 64-bit; tolerance 0 is CHECK_EQ). */
#define CHECK_NEAR(a, b, tolerance) \
    check_report_near((int64_t)(a), (int64_t)(b), (int64_t)(tolerance), __FILE__, __LINE__, #a, #b)

#define CHECK_STREQ(a, b) check_report_str((a), (b), __FILE__, __LINE__, #a, #b)

static inline int check_summary(void)
{
    printf("%lu passed, %lu failed\n", check_passed_count, check_failed_count);
    fflush(stdout);
    return check_failed_count == 0 ? 0 : 1;
}

#define CHECK_SUMMARY() check_summary()

#endif
