/* Basic types shared by every subsystem: simulated time, fatal errors. */
#ifndef UVMSIM_BASE_H
#define UVMSIM_BASE_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

/* Simulated time in picoseconds: 2^64 ps is ~213 days, far beyond any run. */
typedef uint64_t sim_time;
#define TIME_NEVER UINT64_MAX
#define PS_PER_NS 1000ULL
#define PS_PER_US 1000000ULL

#define UVMSIM_VERSION "0.1.0"

/* Exit codes (README, CLI). */
enum { EXIT_OK = 0, EXIT_INTERNAL = 1, EXIT_USER = 2, EXIT_ABORT = 3 };

/* An internal invariant broke: print component and simulated time, then
 * abort(3)-style exit through the engine's abort hook (dumps in-flight
 * state first when an engine is running). Never returns. */
void sim_panic(const char *component, sim_time now, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* A user error outside the config loader (missing workload file, ...):
 * prints "uvmsim: <msg>" and exits 2. Never returns. */
void user_error(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

#define SIM_ASSERT(cond, comp, now, ...)                                      \
    do { if (!(cond)) sim_panic((comp), (now), __VA_ARGS__); } while (0)

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
