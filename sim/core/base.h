/* Basic types shared by every subsystem: simulated time, fatal errors. */
#ifndef UVMSIM_BASE_H
#define UVMSIM_BASE_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

/* Simulated time in picoseconds: 2^64 ps is ~213 days, far beyond any run. */
typedef uint64_t sim_time;
#define TIME_NEVER UINT64_MAX
#define PS_PER_NS 1000ULL
#define PS_PER_US 1000000ULL

#define UVMSIM_VERSION "0.1.0"

/* The model's revision, bumped by hand (+1) in the commit that changes a
 * simulated result -- any statistic, time or event count of some config --
 * and not for formats, messages, speed or new keys whose default keeps the
 * old behaviour.  Every result records it (/@model_revision) and a sweep
 * reruns the points whose recorded revision differs (docs/decisions.md,
 * "Sweep resumption across upgrades").  Results written before it existed
 * count as revision 1.  Revision 2 (issue 40): the real-driver baseline
 * (configs/driver-real.yaml and the presets on it) pays fitted CPU-side
 * costs and reads back written objects; every other config is unchanged.
 * Revision 3: a prefetch to the GPU pays those costs' per-page and
 * new-block parts too (uvm_migrate is uvm_va_block_make_resident);
 * again only configs with driver.page_cost or new_block_cost set (the
 * real-driver ones) change.  Revision 4: access-counter migrations pay
 * them too (service_va_block_locked is uvm_va_block_service_locked):
 * only configs with driver.access_counters.migrate and those costs set
 * (the SC19 UM runs on sc19-summit.yaml) change.  Revision 5: a thrashing
 * pin's expiry no longer holds the run open once the work is over
 * (engine_defer_at): only runs with a pin still pending at their end
 * change (end time, driver.thrashing.unpinned). */
#define UVMSIM_MODEL_REVISION 5
/* How a time reads to a person (the stepper and its `show` views, issue
 * 36): microseconds to read, picoseconds beside them to be exact, e.g.
 * "12.345678 us (12345678 ps)".  Writes into BUF (TIME_STR_MAX bytes) and
 * returns it. */
#define TIME_STR_MAX 56
const char *time_str(char *buf, sim_time t);

/* Exit codes (README, CLI). */
enum { EXIT_OK = 0, EXIT_INTERNAL = 1, EXIT_USER = 2, EXIT_ABORT = 3 };

/* An internal invariant broke: print component and simulated time, then
 * abort(3)-style exit through the engine's abort hook (dumps in-flight
 * state first when an engine is running). Never returns. */
void sim_panic(const char *component, sim_time now, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
/* What sim_panic dumps after its line: dump(ctx, stderr), or nothing
 * while dump is NULL.  The engine registers its component dump while it
 * runs, so the ground below it need not know the engine. */
void sim_set_panic_dump(void (*dump)(void *ctx, FILE *out), void *ctx);

/* A user error outside the config loader (missing workload file, ...):
 * prints "uvmsim: <msg>" and exits 2. Never returns.  While a locator is
 * set (system_build sets one naming where the config keys of the message
 * were set), the line is "WHERE: key 'K': <msg>" instead.  Control
 * characters and invalid UTF-8 are escaped (sim/core/text.h): one line, always.
 * Cleanups pushed by the code raising the error run first. */
void user_error(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));
/* A whole message line that already names its location (the config
 * loader's "FILE:LINE:COL: key ...": escaped, printed, exit 2. */
void user_error_line(const char *line) __attribute__((noreturn));

/* Rewrites MSG into a located line in OUT; false leaves it unlocated. */
typedef bool (*user_error_locator)(void *ctx, const char *msg, char *out, size_t n);
void user_error_set_locator(user_error_locator fn, void *ctx);
/* Instead of printing and exiting: receives the escaped line and must not
 * return (the fuzz harnesses and the regression replayer longjmp out).
 * NULL restores the default. */
void user_error_set_handler(void (*fn)(const char *line));
/* Resources held while a user error may be raised (an open file, a
 * half-read graph): FN(CTX) runs before the error exits or is handled.
 * Pops are LIFO and do not run FN. */
void user_error_push_cleanup(void (*fn)(void *ctx), void *ctx);
void user_error_pop_cleanup(void);

/* Host memory a run may plan to use, in bytes: the smaller of physical
 * memory and the address-space / data-segment limits (setrlimit), or what
 * host_memory_set_limit set (fuzz harnesses keep it small).  Input-driven
 * sizes above it are refused as user errors, not attempted. */
uint64_t host_memory_limit(void);
void host_memory_set_limit(uint64_t bytes);
/* a * b, or UINT64_MAX when it overflows (sizes computed from input). */
static inline uint64_t mul_sat(uint64_t a, uint64_t b)
{ uint64_t r; return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r; }
static inline uint64_t add_sat(uint64_t a, uint64_t b)
{ uint64_t r; return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r; }

#define SIM_ASSERT(cond, comp, now, ...)                                      \
    do { if (!(cond)) sim_panic((comp), (now), __VA_ARGS__); } while (0)

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
