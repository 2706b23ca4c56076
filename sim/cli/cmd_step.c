/* uvmsim step: a plain-text stepper on the live simulation (DESIGN.md,
 * "Traces and stepping").  Commands are read a line at a time from
 * standard input, so the same session runs typed on a terminal or from a
 * file (`uvmsim step CONFIG < commands.txt`), with deterministic output.
 * Stops come from the engine (engine_run_until: a time, or a predicate
 * asked after each event) and from the trace hooks' observer (sim/trace:
 * each fault, batch, eviction, shootdown, kernel).  On a terminal the line
 * editing is the terminal's own (no readline: docs/decisions.md) and an
 * empty line repeats the last command, as in gdb.  Ctrl-C stops the
 * command that runs at the next event boundary (gdb's interrupt); a second
 * one while that command still runs quits. */
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "config/config.h"
#include "core/engine.h"
#include "core/stats.h"
#include "system.h"
#include "sm/sm.h"
#include "tlb/tlb.h"
#include "gmmu/gmmu.h"
#include "dram/dram.h"
#include "link/link.h"
#include "driver/driver.h"
#include "trace/trace.h"
#include "core/text.h"

static const char usage_step[] =
    "usage: uvmsim step CONFIG [-s KEY=VALUE]... [< COMMANDS]\n"
    "\n"
    "Step through the simulation of CONFIG, reading commands from standard\n"
    "input (type them, or pipe a file: the output is deterministic).  'help'\n"
    "lists the commands (docs/students.md walks through a fault with them).\n";

static const char help_text[] =
    "commands (N: a number, T: a time with unit such as 20us, VPN: a page number like 0x100000000):\n"
    "  step [N]                 run N core cycles (default 1)\n"
    "  run until fault|batch|evict|shootdown|kernel\n"
    "                           run to the next far fault logged / batch fetched / page\n"
    "                           evicted / TLB shootdown / kernel start or end\n"
    "  run until time T         run to simulated time T\n"
    "  run | continue           run to the end (or a breakpoint)\n"
    "  break fault|batch|evict|shootdown|kernel|time T\n"
    "                           stop every run and step there too; 'break' lists, 'delete N' removes\n"
    "  show sm N                an SM's warps and what each waits on\n"
    "  show warp S W            warp W of SM S: state, memory instructions, their pages\n"
    "  show tlb l1 N            SM N's L1 TLB: entries and MSHRs\n"
    "  show tlb l2 [set K]      the L2 TLB, or one of its sets\n"
    "  show gmmu                the walker: busy walks, queued walks, parked walks\n"
    "  show faultbuf            the fault buffer's entries\n"
    "  show driver              the driver thread: state, frames\n"
    "  show batch               the batch in progress: phase, pages by VA block\n"
    "  show link                the link's directions\n"
    "  show dram CH             GPU memory channel CH: queues, open rows\n"
    "  show page VPN            a page's mapping and the walks parked on it\n"
    "  show stats PATTERN       statistics whose name matches (glob, e.g. driver.*)\n"
    "  where                    simulated time and the next event\n"
    "  restart                  start the run again from t=0 (same config and seed; breakpoints kept)\n"
    "  help, quit               (Ctrl-C stops a running command; a second Ctrl-C quits)\n";

enum { EV_TIME = 8 };      /* a stop kind beside enum trace_ev */
static const char *const ev_names[] = { "fault", "batch", "evict", "shootdown", "kernel" };
#define MAX_BREAKS 32
/* Events seen after the stop inside the same engine event (an eviction
 * and its shootdown happen in one driver step): the next run looks at
 * them first, so no stop is skipped. */
#define MAX_PENDING 64

struct brk { int kind; sim_time t; };
struct seen { int kind; sim_time t; char what[160]; };

struct stepper {
    struct config *cfg;
    struct system *sys;
    struct engine *e;
    struct system_parts p;
    sim_time period;
    bool over;
    enum run_status st;
    unsigned until;            /* bits of enum trace_ev that end this run */
    struct brk brk[MAX_BREAKS];
    size_t nbrk;
    bool hit;
    char why[256];
    struct seen pend[MAX_PENDING];
    size_t npend;
};

/* Microseconds to read, picoseconds and the core cycle to be exact. */
static void show_time(FILE *out, struct stepper *s, sim_time t)
{
    fprintf(out, "t=%llu.%06llu us (%llu ps, core cycle %llu)", (unsigned long long)(t / PS_PER_US),
            (unsigned long long)(t % PS_PER_US), (unsigned long long)t,
            (unsigned long long)(t / s->period));
}

/* Ctrl-C.  `running` is set while a command runs (its output included:
 * a command blocked on a full pipe still runs); the first SIGINT of a
 * command asks the engine to stop after the event it is in (stop_fn),
 * the second quits at once, as gdb's second interrupt does.  At the
 * prompt it shows a fresh prompt, as a shell does. */
static volatile sig_atomic_t running, interrupts, prompt_tty;

static void on_sigint(int sig)
{
    (void)sig;
    if (!running) {
        static const char p[] = "\n(uvmsim) ";
        if (prompt_tty && write(STDOUT_FILENO, p, sizeof p - 1) < 0) { /* nothing to do */ }
        return;
    }
    if (++interrupts >= 2) {
        static const char m[] = "\nuvmsim: a second Ctrl-C while the command runs: quitting\n";
        if (write(STDERR_FILENO, m, sizeof m - 1) < 0) { /* exiting anyway */ }
        _exit(128 + SIGINT);
    }
}

static bool stops_on(const struct stepper *s, int ev)
{
    if (s->until & (1u << ev)) return true;
    for (size_t i = 0; i < s->nbrk; i++)
        if (s->brk[i].kind == ev) return true;
    return false;
}

static void observer(void *ctx, enum trace_ev ev, const char *what, sim_time now)
{
    struct stepper *s = ctx;
    if (s->hit) {
        if (s->npend < MAX_PENDING) {
            struct seen *p = &s->pend[s->npend++];
            p->kind = (int)ev;
            p->t = now;
            snprintf(p->what, sizeof p->what, "%s", what);
        }
        return;
    }
    if (!stops_on(s, (int)ev)) return;
    s->hit = true;
    snprintf(s->why, sizeof s->why, "%s", what);
}

static bool stop_fn(void *ctx) { return ((struct stepper *)ctx)->hit || interrupts; }

/* The earliest time breakpoint after now, or TIME_NEVER. */
static sim_time next_time_break(const struct stepper *s, sim_time now)
{
    sim_time t = TIME_NEVER;
    for (size_t i = 0; i < s->nbrk; i++)
        if (s->brk[i].kind == EV_TIME && s->brk[i].t > now && s->brk[i].t < t) t = s->brk[i].t;
    return t;
}

static void finish(struct stepper *s, FILE *out)
{
    s->over = true;
    system_finish(s->sys);
    fputs("the run is over at ", out);
    show_time(out, s, engine_end_time(s->e));
    fprintf(out, ": %s, %llu kernels done\n",
            s->st == RUN_COMPLETED ? "completed" : s->st == RUN_TIME_LIMIT ? "sim.max_time reached"
                                                                          : "sim.max_events reached",
            (unsigned long long)system_kernels_done(s->sys));
}

/* Run to `until` or the first stop; report where it stopped. */
static void go(struct stepper *s, sim_time until, FILE *out)
{
    if (s->over) { fputs("the run is over ('restart' starts it again, 'quit' leaves)\n", out); return; }
    /* A stop among the events of the last step that came after its own. */
    for (size_t i = 0; i < s->npend; i++) {
        if (!stops_on(s, s->pend[i].kind)) continue;
        fputs("stopped at ", out);
        show_time(out, s, s->pend[i].t);
        fprintf(out, ": %s (in the same step as the last stop)\n", s->pend[i].what);
        s->npend -= i + 1;
        memmove(s->pend, s->pend + i + 1, s->npend * sizeof s->pend[0]);
        return;
    }
    s->npend = 0;
    s->hit = false;
    sim_time tb = next_time_break(s, engine_now(s->e));
    bool by_break = tb < until;
    if (by_break) until = tb;
    if (engine_run_until(s->e, until, stop_fn, s, &s->st)) { finish(s, out); return; }
    fputs("stopped at ", out);
    show_time(out, s, engine_now(s->e));
    if (s->hit) fprintf(out, ": %s\n", s->why);
    else if (interrupts) fputs(": interrupted (Ctrl-C)\n", out);
    else if (by_break) fputs(": time breakpoint\n", out);
    else fputc('\n', out);
}

static bool parse_time(const char *text, sim_time *t)
{
    static const struct cfg_key k = { "time", CFG_TIME, "0s", 0, 1e18, NULL, "" };
    struct cfg_value v;
    char why[200];
    memset(&v, 0, sizeof v);
    if (!text || !cfg_parse(&k, text, &v, why, sizeof why)) return false;
    *t = v.u;
    return true;
}

static bool parse_u64(const char *text, uint64_t *v)
{
    if (!text || *text == '-' || *text == '+') return false;
    char *end;
    errno = 0;
    *v = strtoull(text, &end, 0);
    return !errno && end != text && !*end;
}

/* TEXT as a number from LO to HI, checked before any narrowing (a u64
 * cast to unsigned would turn SM 4294967296 into SM 0); else one line
 * naming WHAT and its range (past 2^64-1 too: strtoull's ERANGE). */
static bool number(const char *text, uint64_t lo, uint64_t hi, const char *what, uint64_t *v, FILE *out)
{
    char esc[80];
    errno = 0;
    bool num = parse_u64(text, v);
    if (num && *v >= lo && *v <= hi) return true;
    text_escape(esc, sizeof esc, text);
    if (num || errno == ERANGE)
        fprintf(out, "no %s %s: %ss are %llu to %llu\n", what, esc, what, (unsigned long long)lo,
                (unsigned long long)hi);
    else
        fprintf(out, "%s '%s' is not a number (%llu to %llu; 0x for hex)\n", what, esc,
                (unsigned long long)lo, (unsigned long long)hi);
    return false;
}

static int ev_of(const char *w)
{
    for (int i = 0; w && i < 5; i++) if (!strcmp(w, ev_names[i])) return i;
    return -1;
}

static void show_stats(struct stepper *s, const char *pat, FILE *out)
{
    const struct stats *st = system_stats(s->sys);
    size_t shown = 0;
    for (size_t i = 0; i < stats_count(st); i++) {
        const struct stat_entry *e = stats_at(st, i);
        if (fnmatch(pat, e->name, 0) != 0 && !strstr(e->name, pat)) continue;
        shown++;
        fprintf(out, "  %s = ", e->name);
        switch (e->kind) {
        case STAT_COUNTER: fprintf(out, "%llu", (unsigned long long)*e->p.u); break;
        case STAT_VECTOR:
            for (size_t k = 0; k < e->n; k++) fprintf(out, "%s%llu", k ? " " : "", (unsigned long long)e->p.u[k]);
            break;
        case STAT_AVERAGE: fprintf(out, "%.6g (mean of %llu)", stat_avg_value(e->p.avg),
                                   (unsigned long long)e->p.avg->count); break;
        case STAT_REAL: fprintf(out, "%.6g", *e->p.real); break;
        case STAT_HISTOGRAM: fprintf(out, "%llu samples, mean %.6g, max %llu",
                                     (unsigned long long)e->p.hist->count,
                                     e->p.hist->count ? e->p.hist->sum / (double)e->p.hist->count : 0.0,
                                     (unsigned long long)e->p.hist->max); break;
        }
        fprintf(out, "%s%s\n", e->unit[0] ? " " : "", e->unit);
    }
    if (!shown) {
        char esc[200];
        text_escape(esc, sizeof esc, pat);
        fprintf(out, "  no statistic matches '%s'\n", esc);
    }
}

static void show(struct stepper *s, char **w, int n, FILE *out)
{
    const char *what = n > 1 ? w[1] : "";
    uint64_t a = 0, b = 0;
    /* The ranges from the config the machine was built from: SMs and warp
     * slots (sim/sm), memory channels (sim/dram), L2 TLB sets = entries /
     * ways with assoc 0 fully associative (tlb.c level_config), pages of
     * a 64-bit address. */
    uint64_t sms = cfg_u64(s->cfg, "gpu.sms"), warps = cfg_u64(s->cfg, "gpu.sm.max_warps");
    uint64_t l2e = cfg_u64(s->cfg, "tlb.l2.entries"), l2w = cfg_u64(s->cfg, "tlb.l2.assoc");
    uint64_t sets = l2w && l2e >= l2w ? l2e / l2w : 1, chans = cfg_u64(s->cfg, "dram.channels");
    if (!strcmp(what, "sm") && n == 3) {
        if (number(w[2], 0, sms - 1, "SM", &a, out)) gpu_describe_sm(s->p.gpu, (unsigned)a, out);
    } else if (!strcmp(what, "warp") && n == 4) {
        if (number(w[2], 0, sms - 1, "SM", &a, out) && number(w[3], 0, warps - 1, "warp", &b, out))
            gpu_describe_warp(s->p.gpu, (unsigned)a, (unsigned)b, out);
    } else if (!strcmp(what, "tlb") && n == 4 && !strcmp(w[2], "l1")) {
        if (number(w[3], 0, sms - 1, "SM", &a, out)) tlb_describe_l1(s->p.tlb, (unsigned)a, out);
    } else if (!strcmp(what, "tlb") && n == 3 && !strcmp(w[2], "l2")) tlb_describe_l2(s->p.tlb, -1, out);
    else if (!strcmp(what, "tlb") && n == 5 && !strcmp(w[2], "l2") && !strcmp(w[3], "set")) {
        if (number(w[4], 0, sets - 1, "set", &a, out)) tlb_describe_l2(s->p.tlb, (long)a, out);
    }
    else if (!strcmp(what, "gmmu") && n == 2) gmmu_describe(s->p.gmmu, out);
    else if (!strcmp(what, "faultbuf") && n == 2) gmmu_describe_faults(s->p.gmmu, out);
    else if (!strcmp(what, "driver") && n == 2) driver_describe(s->p.drv, out);
    else if (!strcmp(what, "batch") && n == 2) driver_describe_batch(s->p.drv, out);
    else if (!strcmp(what, "link") && n == 2) link_describe(s->p.link, out);
    else if (!strcmp(what, "dram") && n == 3) {
        if (number(w[2], 0, chans - 1, "channel", &a, out)) dram_describe_channel(s->p.dram, (unsigned)a, out);
    } else if (!strcmp(what, "page") && n == 3) {
        if (number(w[2], 0, UINT64_MAX >> PAGE_SHIFT, "page", &a, out)) gmmu_describe_page(s->p.gmmu, a, out);
    }
    else if (!strcmp(what, "stats") && n == 3) show_stats(s, w[2], out);
    else fputs("show what? (help lists: sm N, warp S W, tlb l1 N, tlb l2 [set K], gmmu, faultbuf,"
               " driver, batch, link, dram CH, page VPN, stats PATTERN)\n", out);
}

static void where(struct stepper *s, FILE *out)
{
    fputs("at ", out);
    /* After the end the engine's clock has gone on to the last
     * housekeeping event; the run's time is its end time, as finish
     * reports it. */
    show_time(out, s, s->over ? engine_end_time(s->e) : engine_now(s->e));
    if (s->over) { fputs("; the run is over\n", out); return; }
    sim_time t;
    const char *what;
    if (engine_next(s->e, &t, &what)) {
        fputs("; next: ", out);
        fputs(what, out);
        fputs(" at ", out);
        show_time(out, s, t);
    }
    fputc('\n', out);
}

static void brk(struct stepper *s, char **w, int n, FILE *out)
{
    if (n == 1) {
        if (!s->nbrk) fputs("no breakpoints\n", out);
        for (size_t i = 0; i < s->nbrk; i++) {
            fprintf(out, "  %zu: ", i + 1);
            if (s->brk[i].kind == EV_TIME) { fputs("time ", out); show_time(out, s, s->brk[i].t); fputc('\n', out); }
            else fprintf(out, "%s\n", ev_names[s->brk[i].kind]);
        }
        return;
    }
    struct brk b = { ev_of(w[1]), 0 };
    if (b.kind < 0 && !strcmp(w[1], "time") && n == 3 && parse_time(w[2], &b.t)) b.kind = EV_TIME;
    if (b.kind < 0 || (b.kind != EV_TIME && n != 2)) {
        fputs("break on what? fault, batch, evict, shootdown, kernel, or time T (e.g. 20us)\n", out);
        return;
    }
    if (s->nbrk == MAX_BREAKS) { fprintf(out, "too many breakpoints (%d; 'delete N' removes one)\n", MAX_BREAKS); return; }
    s->brk[s->nbrk++] = b;
    fprintf(out, "breakpoint %zu set\n", s->nbrk);
}

/* The machine of s->cfg at t=0, observed by the stepper. */
static void build(struct stepper *s)
{
    s->sys = system_build(s->cfg);
    s->e = system_engine(s->sys);
    s->period = system_core_period(s->sys);
    system_parts(s->sys, &s->p);
    trace_observe(observer, s);
    system_start(s->sys);
    s->over = false;
    s->hit = false;
    s->npend = 0;
    s->until = 0;
}

/* A fresh machine from the same config and seed: the state is that of a
 * fresh `uvmsim step` (the simulation is deterministic and keeps no state
 * outside the system; the observer's batch numbering restarts). */
static void restart(struct stepper *s, FILE *out)
{
    trace_observe(NULL, NULL);
    system_free(s->sys);
    build(s);
    fputs("restarted at ", out);
    show_time(out, s, engine_now(s->e));
    if (s->nbrk) fprintf(out, "; %zu breakpoint(s) kept", s->nbrk);
    fputc('\n', out);
}

/* A command's first word, escaped, in its error line. */
static void unknown(const char *w0, FILE *out)
{
    char esc[80];
    text_escape(esc, sizeof esc, w0);
    fprintf(out, "unknown command '%s' (help lists them)\n", esc);
}

/* One command; false to quit.  Every command checks its argument count
 * and numbers itself and says what it expects: a known command with a bad
 * argument is never "unknown". */
static bool command(struct stepper *s, char *line, FILE *out)
{
    /* One more slot than any command takes: a ninth word makes n = 9. */
    char *w[9];
    int n = 0;
    for (char *t = strtok(line, " \t\r\n"); t && n < 9; t = strtok(NULL, " \t\r\n")) w[n++] = t;
    if (!n) return true;
    uint64_t k;
    bool is_run = !strcmp(w[0], "run") || !strcmp(w[0], "r");
    if (!strcmp(w[0], "quit") || !strcmp(w[0], "q") || !strcmp(w[0], "exit")) {
        if (n == 1) return false;
        fprintf(out, "%s takes no argument\n", w[0]);
    } else if (!strcmp(w[0], "help") || !strcmp(w[0], "h")) fputs(help_text, out);
    else if (!strcmp(w[0], "step") || !strcmp(w[0], "s")) {
        /* At most the latest time any command accepts (parse_time: 1e18
         * ps), so the target time cannot wrap around. */
        uint64_t cyc = 1, most = 1000000000000000000ULL / s->period;
        if (n > 2 || (n == 2 && (!parse_u64(w[1], &cyc) || !cyc || cyc > most))) {
            fprintf(out, "step N: N core cycles, 1 to %llu\n", (unsigned long long)most);
            return true;
        }
        sim_time now = engine_now(s->e);
        go(s, add_sat(now - now % s->period, cyc * s->period), out);
    } else if (is_run && n >= 2 && !strcmp(w[1], "until")) {
        int ev = n >= 3 ? ev_of(w[2]) : -1;
        sim_time t;
        if (ev >= 0 && n == 3) { s->until = 1u << ev; go(s, TIME_NEVER, out); s->until = 0; }
        else if (n >= 3 && !strcmp(w[2], "time") && n == 4 && parse_time(w[3], &t)) {
            if (t <= engine_now(s->e)) fputs("that time has passed\n", out);
            else go(s, t, out);
        } else fputs("run until what? fault, batch, evict, shootdown, kernel, or time T (e.g. 20us)\n", out);
    } else if (is_run || !strcmp(w[0], "continue") || !strcmp(w[0], "c")) {
        if (n == 1) go(s, TIME_NEVER, out);
        else fprintf(out, "%s takes no argument ('run until ...' stops earlier)\n", w[0]);
    } else if (!strcmp(w[0], "show")) show(s, w, n, out);
    else if (!strcmp(w[0], "where")) {
        if (n == 1) where(s, out);
        else fputs("where takes no argument\n", out);
    } else if (!strcmp(w[0], "restart")) {
        if (n == 1) restart(s, out);
        else fputs("restart takes no argument\n", out);
    } else if (!strcmp(w[0], "break")) brk(s, w, n, out);
    else if (!strcmp(w[0], "delete")) {
        if (n != 2) fputs("delete N: the number of a breakpoint ('break' lists them)\n", out);
        else if (!s->nbrk) fputs("no breakpoints to delete\n", out);
        else if (number(w[1], 1, s->nbrk, "breakpoint", &k, out)) {
            memmove(&s->brk[k - 1], &s->brk[k], (s->nbrk - k) * sizeof s->brk[0]);
            s->nbrk--;
            fprintf(out, "breakpoint %llu deleted\n", (unsigned long long)k);
        }
    } else unknown(w[0], out);
    return true;
}

/* The longest command line: longer ones are refused whole (never cut,
 * with the rest run as a second command). */
#define LINE_MAX_BYTES 511

/* One line of IN, without its newline, into line (LINE_MAX_BYTES + 1
 * bytes, the first LINE_MAX_BYTES kept); false at the end of the input.
 * *len: the whole line's length (read to its end however long); *nul: it
 * held a NUL byte. */
static bool read_line(FILE *in, char *line, size_t *len, bool *nul)
{
    size_t n = 0;
    int c;
    bool any = false;
    *len = 0;
    *nul = false;
    while ((c = getc(in)) != EOF) {
        any = true;
        if (c == '\n') break;
        (*len)++;
        if (c == 0) *nul = true;
        if (n < LINE_MAX_BYTES) line[n++] = (char)c;
    }
    line[n] = 0;
    return any;
}

struct stepper *stepper_new(struct config *cfg)
{
    struct stepper *s = xcalloc(1, sizeof *s);
    s->cfg = cfg;
    build(s);
    return s;
}

void stepper_free(struct stepper *s)
{
    if (!s) return;
    trace_observe(NULL, NULL);
    system_free(s->sys);
    free(s);
}

void stepper_session(struct stepper *s, FILE *in, FILE *out, bool tty)
{
    char line[LINE_MAX_BYTES + 1], last[LINE_MAX_BYTES + 1] = "";
    char esc[4 * (LINE_MAX_BYTES + 1)];
    for (;;) {
        if (tty) { fputs("(uvmsim) ", out); fflush(out); }
        size_t len;
        bool nul;
        if (!read_line(in, line, &len, &nul)) break;
        interrupts = 0;
        running = 1;
        if (!tty) {                    /* a transcript reads like a session */
            /* Escaped: a control byte typed or piped in never reaches the
             * terminal raw (text_escape; a long line ends in "...").  The
             * CR of a CRLF file is not shown. */
            size_t shown = strlen(line);
            if (shown && line[shown - 1] == '\r') line[--shown] = 0;
            text_escape(esc, len > LINE_MAX_BYTES ? 80 : sizeof esc, line);
            fprintf(out, "(uvmsim) %s\n", esc);
        }
        bool more = true;
        if (len > LINE_MAX_BYTES)
            fprintf(out, "line too long (%zu bytes; at most %d): ignored\n", len, LINE_MAX_BYTES);
        else if (nul) fputs("line holds a NUL byte: ignored\n", out);
        else {
            if (tty && strspn(line, " \t\r\n") == strlen(line)) memcpy(line, last, sizeof line);
            else memcpy(last, line, sizeof last);
            more = command(s, line, out);
        }
        fflush(out);
        running = 0;
        if (!more) break;
    }
}

int cmd_step(int argc, char **argv)
{
    struct opts o = {0};
    parse_opts(argc, argv, &o, usage_step, false);
    struct config *cfg = load_or_exit(&o);
    struct stepper *s = stepper_new(cfg);
    bool tty = isatty(STDIN_FILENO);
    prompt_tty = tty;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sa.sa_flags = SA_RESTART;        /* reads and writes go on after a Ctrl-C */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    FILE *out = stdout;
    fprintf(out, "uvmsim %s stepper: %s, ", UVMSIM_VERSION, o.config);
    show_time(out, s, engine_now(s->e));
    fputs("; 'help' lists the commands\n", out);
    stepper_session(s, stdin, out, tty);
    stepper_free(s);
    config_free(cfg);
    return EXIT_OK;
}
