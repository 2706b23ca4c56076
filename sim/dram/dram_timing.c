/* DRAM timing and organisation: the key tables of GPU memory (dram.*) and
 * host memory (host.dram.*), loading them in ps, and rejecting impossible
 * combinations with a message naming the key (exit 2).
 *
 * GPU defaults: the HPE machine (Table I: GDDR5, 12 channels, FR-FCFS,
 * 177 GB/s) is GPGPU-Sim 3.2.2's GTX 480; its gpgpusim.config gives the
 * GDDR5 timing RCD=12 RP=12 RAS=28 RC=40 CL=12 WL=4 WR=12 CDLR(tWTR)=5
 * RRD=6 CCD=2 CCDL=3 RTPL=2, 16 banks in 4 groups, 924 MHz command clock.
 * The thesis (Tables 4.1/5.1/6.3) uses the same RCD=RP=12, RC=40,
 * CL=WR=12.  12 channels x 4 B x 4 transfers/clock x 924 MHz = 177.4 GB/s.
 * Not given by either: tFAW 20 ns (19 clocks) and tRFC 37 ns (35 clocks),
 * taken from DRAMsim3's GDDR5_8Gb_x32 config; tREFI 3.9 us (32 ms / 8K
 * rows, JEDEC GDDR5).
 *
 * Host defaults: the thesis' CPU-attached DDR4 (Tables 4.1/5.1/6.3:
 * 4 channels, 80 GB/s, RCD=RP=12, RC=40, CL=WR=12, burst length 8):
 * 4 x 8 B x 2 x 1250 MHz = 80 GB/s.  The rest from DRAMsim3's
 * DDR4_8Gb_x8_2400 (Micron MT40A1G8) in ns, rounded up to 0.8 ns clocks:
 * tRRD_S/L 4/6, tFAW 21 ns (27), tWTR_L 7.5 ns (10), tRTP 7.5 ns (10),
 * tCCD_S/L 4/6, tRFC 350 ns (438), tREFI 7.8 us (9750), 8 KiB rows. */
#include <stdio.h>
#include <string.h>
#include "dram_int.h"
#include "config/config.h"

#define CYC(name, def, lo, desc) \
    {name, CFG_INT, def, lo, 1e7, NULL, desc " (memory clocks)"}

const struct cfg_key dram_config_keys[] = {
    {"dram.clock", CFG_FREQ, "924MHz", 1e6, 1e11, NULL,
     "GPU memory command clock (GTX 480 GDDR5, GPGPU-Sim config)"},
    {"dram.channels", CFG_INT, "12", 1, 1024, NULL,
     "GPU memory channels (HPE Table I: 12 GDDR5 channels)"},
    {"dram.bus_width", CFG_SIZE, "4B", 1, 1024, NULL,
     "data bus width of one channel (one x32 GDDR5 device)"},
    {"dram.data_rate", CFG_INT, "4", 1, 16, NULL,
     "data transfers per command clock (GDDR5: 4, DDR4/HBM2: 2)"},
    {"dram.burst_length", CFG_INT, "8", 1, 64, NULL,
     "transfers per column command (GDDR5: 8)"},
    {"dram.banks", CFG_INT, "16", 1, 1024, NULL, "banks per channel"},
    {"dram.bank_groups", CFG_INT, "4", 1, 64, NULL,
     "bank groups per channel (banks alternate groups)"},
    {"dram.row_size", CFG_SIZE, "2KiB", 32, 1048576, NULL,
     "row buffer of one bank across the channel"},
    {"dram.interleave", CFG_SIZE, "256B", 1, 1048576, NULL,
     "bytes mapped to one channel before the next (GPGPU-Sim: 256 B)"},
    {"dram.mapping", CFG_ENUM, "row_col_bank", 0, -1, "row_col_bank|row_bank_col",
     "bit order inside a channel, high to low (interleave chunk lowest)"},
    {"dram.xor_bank", CFG_BOOL, "true", 0, -1, NULL,
     "permute banks by the row (XOR hashing, Zhang et al. MICRO 2000)"},
    {"dram.queue", CFG_INT, "64", 1, 1048576, NULL,
     "entries of each channel's input queue (full: senders stall)"},
    {"dram.read_queue", CFG_INT, "64", 1, 4096, NULL,
     "FR-FCFS read queue per channel (GPGPU-Sim frfcfs queue: 64)"},
    {"dram.write_queue", CFG_INT, "32", 1, 4096, NULL,
     "write queue per channel (Accel-Sim dram_write_queue_size 32:28:16)"},
    {"dram.write_high", CFG_INT, "28", 1, 4096, NULL,
     "write queue length that starts a write drain"},
    {"dram.write_low", CFG_INT, "16", 0, 4096, NULL,
     "write queue length that ends a write drain"},
    CYC("dram.ctrl_latency", "0", 0,
        "controller pipeline, a fixed delay on every answer that holds no queue slot"),
    CYC("dram.tRCD", "12", 1, "ACT to column command"),
    CYC("dram.tRP", "12", 1, "PRE to ACT"),
    CYC("dram.tRAS", "28", 1, "ACT to PRE"),
    CYC("dram.tRC", "40", 1, "ACT to ACT, same bank"),
    CYC("dram.tCL", "12", 1, "RD to data"),
    CYC("dram.tCWL", "4", 0, "WR to data"),
    CYC("dram.tWR", "12", 1, "end of write data to PRE"),
    CYC("dram.tWTR", "5", 0, "end of write data to RD"),
    CYC("dram.tRTP", "2", 1, "RD to PRE"),
    CYC("dram.tRRD_L", "6", 1, "ACT to ACT, same bank group"),
    CYC("dram.tRRD_S", "6", 1, "ACT to ACT, other bank group"),
    CYC("dram.tFAW", "19", 0, "window holding at most four ACTs"),
    CYC("dram.tCCD_L", "3", 1, "column to column, same bank group"),
    CYC("dram.tCCD_S", "2", 1, "column to column, other bank group"),
    CYC("dram.tREFI", "3604", 0, "refresh interval (0: no refresh)"),
    CYC("dram.tRFC", "35", 1, "all-bank refresh time"),
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

const struct cfg_key hostmem_config_keys[] = {
    {"host.latency", CFG_INT, "100", 0, 1e7, NULL,
     "extra interconnect latency to host memory in GPU core cycles "
     "(thesis Tables 4.1/5.1/6.3: 100)"},
    {"host.dram.clock", CFG_FREQ, "1250MHz", 1e6, 1e11, NULL,
     "host DDR4 command clock (80 GB/s over 4 x 64-bit channels)"},
    {"host.dram.channels", CFG_INT, "4", 1, 1024, NULL,
     "host DDR4 channels (thesis Table 4.1: 4)"},
    {"host.dram.bus_width", CFG_SIZE, "8B", 1, 1024, NULL, "data bus width of one channel"},
    {"host.dram.data_rate", CFG_INT, "2", 1, 16, NULL, "data transfers per command clock"},
    {"host.dram.burst_length", CFG_INT, "8", 1, 64, NULL,
     "transfers per column command (thesis Table 6.3: 8)"},
    {"host.dram.banks", CFG_INT, "16", 1, 1024, NULL, "banks per channel"},
    {"host.dram.bank_groups", CFG_INT, "4", 1, 64, NULL, "bank groups per channel"},
    {"host.dram.row_size", CFG_SIZE, "8KiB", 32, 1048576, NULL,
     "row buffer of one bank across the channel (8 x8 devices x 1 KiB)"},
    {"host.dram.interleave", CFG_SIZE, "256B", 1, 1048576, NULL,
     "bytes mapped to one channel before the next"},
    {"host.dram.mapping", CFG_ENUM, "row_col_bank", 0, -1, "row_col_bank|row_bank_col",
     "bit order inside a channel, high to low"},
    {"host.dram.xor_bank", CFG_BOOL, "true", 0, -1, NULL, "permute banks by the row"},
    {"host.dram.queue", CFG_INT, "64", 1, 1048576, NULL, "input queue per channel"},
    {"host.dram.read_queue", CFG_INT, "64", 1, 4096, NULL, "read queue per channel"},
    {"host.dram.write_queue", CFG_INT, "32", 1, 4096, NULL, "write queue per channel"},
    {"host.dram.write_high", CFG_INT, "28", 1, 4096, NULL, "write drain starts"},
    {"host.dram.write_low", CFG_INT, "16", 0, 4096, NULL, "write drain ends"},
    CYC("host.dram.ctrl_latency", "0", 0,
        "controller pipeline, a fixed delay on every answer that holds no queue slot"),
    CYC("host.dram.tRCD", "12", 1, "ACT to column command"),
    CYC("host.dram.tRP", "12", 1, "PRE to ACT"),
    CYC("host.dram.tRAS", "28", 1, "ACT to PRE"),
    CYC("host.dram.tRC", "40", 1, "ACT to ACT, same bank"),
    CYC("host.dram.tCL", "12", 1, "RD to data"),
    CYC("host.dram.tCWL", "10", 0, "WR to data"),
    CYC("host.dram.tWR", "12", 1, "end of write data to PRE"),
    CYC("host.dram.tWTR", "10", 0, "end of write data to RD"),
    CYC("host.dram.tRTP", "10", 1, "RD to PRE"),
    CYC("host.dram.tRRD_L", "6", 1, "ACT to ACT, same bank group"),
    CYC("host.dram.tRRD_S", "4", 1, "ACT to ACT, other bank group"),
    CYC("host.dram.tFAW", "27", 0, "window holding at most four ACTs"),
    CYC("host.dram.tCCD_L", "6", 1, "column to column, same bank group"),
    CYC("host.dram.tCCD_S", "4", 1, "column to column, other bank group"),
    CYC("host.dram.tREFI", "9750", 0, "refresh interval (0: no refresh)"),
    CYC("host.dram.tRFC", "438", 1, "all-bank refresh time"),
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct loader { const struct config *cfg; const char *prefix; char path[64]; };

static const char *key(struct loader *l, const char *name)
{
    snprintf(l->path, sizeof l->path, "%s.%s", l->prefix, name);
    return l->path;
}

static uint64_t u(struct loader *l, const char *name) { return cfg_u64(l->cfg, key(l, name)); }

/* The keys each check below compares with the one it is about: the error
 * names whichever of them the user set (config.h, cfg_fail_keys). */
static const char *const related[][3] = {
    {"burst_length", "data_rate"}, {"tRC", "tRAS", "tRP"}, {"tRAS", "tRCD"},
    {"tCCD_L", "tCCD_S"}, {"tRRD_L", "tRRD_S"}, {"tCCD_S", "burst_length", "data_rate"},
    {"tREFI", "tRFC"}, {"bank_groups", "banks"}, {"interleave", "bus_width", "burst_length"},
    {"row_size", "interleave"}, {"write_high", "write_queue"}, {"write_low", "write_high"},
};

/* An impossible combination: "WHERE: key 'PATH': why (others)". */
static bool bad(struct loader *l, struct cfg_error *err, const char *name,
                const char *fmt, unsigned long long a, unsigned long long b)
{
    char msg[256], paths[4][64];
    const char *keys[5] = { NULL };
    size_t n = 0;
    snprintf(paths[n], sizeof paths[n], "%s.%s", l->prefix, name);
    keys[n] = paths[n];
    n++;
    for (size_t r = 0; r < sizeof related / sizeof related[0]; r++) {
        if (strcmp(related[r][0], name)) continue;
        for (size_t i = 1; i < 3 && related[r][i]; i++, n++) {
            snprintf(paths[n], sizeof paths[n], "%s.%s", l->prefix, related[r][i]);
            keys[n] = paths[n];
        }
    }
    snprintf(msg, sizeof msg, fmt, a, b);
    return cfg_fail_keys(l->cfg, err, keys, "%s", msg);
}

static void fill(struct dram_params *p, struct loader *l)
{
    const struct config *cfg = l->cfg;
    memset(p, 0, sizeof *p);
    p->prefix = l->prefix;
    p->tck = cfg_period(cfg, key(l, "clock"));
    p->nch = (unsigned)u(l, "channels");
    p->bus_width = (uint32_t)u(l, "bus_width");
    p->data_rate = (uint32_t)u(l, "data_rate");
    p->burst_length = (uint32_t)u(l, "burst_length");
    p->nbanks = (unsigned)u(l, "banks");
    p->ngroups = (unsigned)u(l, "bank_groups");
    p->row_size = u(l, "row_size");
    p->interleave = u(l, "interleave");
    p->row_bank_col = cfg_is(cfg, key(l, "mapping"), "row_bank_col");
    p->xor_bank = cfg_bool(cfg, key(l, "xor_bank"));
    p->in_queue = (uint32_t)u(l, "queue");
    p->rq_size = (uint32_t)u(l, "read_queue");
    p->wq_size = (uint32_t)u(l, "write_queue");
    p->w_high = (uint32_t)u(l, "write_high");
    p->w_low = (uint32_t)u(l, "write_low");
    sim_time ck = p->tck;
    p->ctrl = u(l, "ctrl_latency") * ck;
    p->tRCD = u(l, "tRCD") * ck; p->tRP = u(l, "tRP") * ck;
    p->tRAS = u(l, "tRAS") * ck; p->tRC = u(l, "tRC") * ck;
    p->tCL = u(l, "tCL") * ck; p->tCWL = u(l, "tCWL") * ck;
    p->tWR = u(l, "tWR") * ck; p->tWTR = u(l, "tWTR") * ck;
    p->tRTP = u(l, "tRTP") * ck;
    p->tRRD_L = u(l, "tRRD_L") * ck; p->tRRD_S = u(l, "tRRD_S") * ck;
    p->tFAW = u(l, "tFAW") * ck;
    p->tCCD_L = u(l, "tCCD_L") * ck; p->tCCD_S = u(l, "tCCD_S") * ck;
    p->tREFI = u(l, "tREFI") * ck; p->tRFC = u(l, "tRFC") * ck;
    p->burst = p->burst_length / p->data_rate * ck;
    p->atom = p->bus_width * p->burst_length;
    p->peak_bw = (double)p->nch * p->bus_width * p->data_rate * 1e12 / (double)ck;
}

static bool check(const struct dram_params *p, struct loader *l, struct cfg_error *err)
{
    sim_time ck = p->tck;
#define C(x) ((unsigned long long)(p->x / ck))
    if (p->burst_length % p->data_rate)
        return bad(l, err, "burst_length",
                   "%llu transfers do not fill whole clocks at %llu per clock",
                   p->burst_length, p->data_rate);
    if (p->tRC < p->tRAS + p->tRP)
        return bad(l, err, "tRC",
                   "%llu clocks < tRAS + tRP = %llu: a row cannot reopen before it closed",
                   C(tRC), C(tRAS) + C(tRP));
    if (p->tRAS < p->tRCD)
        return bad(l, err, "tRAS",
                   "%llu clocks < tRCD = %llu: the row would close before its first access",
                   C(tRAS), C(tRCD));
    if (p->tCCD_L < p->tCCD_S)
        return bad(l, err, "tCCD_L", "%llu clocks < tCCD_S = %llu", C(tCCD_L), C(tCCD_S));
    if (p->tRRD_L < p->tRRD_S)
        return bad(l, err, "tRRD_L", "%llu clocks < tRRD_S = %llu", C(tRRD_L), C(tRRD_S));
    if (p->tCCD_S < p->burst)
        return bad(l, err, "tCCD_S",
                   "%llu clocks < one burst (%llu clocks): data would overlap on the bus",
                   C(tCCD_S), C(burst));
    if (p->tREFI && p->tREFI <= p->tRFC)
        return bad(l, err, "tREFI", "%llu clocks <= tRFC = %llu: refresh would take all the time",
                   C(tREFI), C(tRFC));
#undef C
    if (p->nbanks % p->ngroups)
        return bad(l, err, "bank_groups", "%llu groups do not divide %llu banks",
                   p->ngroups, p->nbanks);
    if (p->interleave % p->atom)
        return bad(l, err, "interleave", "%llu bytes is not a multiple of the %llu-byte burst",
                   p->interleave, p->atom);
    if (p->row_size % p->interleave)
        return bad(l, err, "row_size",
                   "%llu bytes is not a multiple of the interleave (%llu bytes)",
                   p->row_size, p->interleave);
    if (p->w_high > p->wq_size)
        return bad(l, err, "write_high", "%llu > write_queue = %llu", p->w_high, p->wq_size);
    if (p->w_low >= p->w_high)
        return bad(l, err, "write_low", "%llu >= write_high = %llu", p->w_low, p->w_high);
    return true;
}

bool dram_config_check(const struct config *cfg, struct cfg_error *err)
{
    static const char *const prefixes[] = { "dram", "host.dram" };
    for (size_t i = 0; i < 2; i++) {
        struct loader l = { cfg, prefixes[i], "" };
        struct dram_params p;
        fill(&p, &l);
        if (!check(&p, &l, err)) return false;
    }
    return true;
}

void dram_params_load(struct dram_params *p, const struct config *cfg,
                      const char *prefix)
{
    struct loader l = { cfg, prefix, "" };
    struct cfg_error err;
    fill(p, &l);
    /* config_load has run the check; a config built another way gets it here. */
    if (!check(p, &l, &err)) user_error("%s", err.msg);
}

void dram_decode(const struct dram_params *p, uint64_t pa, struct dram_loc *loc)
{
    uint64_t chunk = pa / p->interleave;
    loc->ch = (unsigned)(chunk % p->nch);
    uint64_t rest = chunk / p->nch, cpr = p->row_size / p->interleave;
    if (p->row_bank_col) {
        rest /= cpr;
        loc->bank = (unsigned)(rest % p->nbanks);
        loc->row = rest / p->nbanks;
    } else {
        loc->bank = (unsigned)(rest % p->nbanks);
        loc->row = rest / p->nbanks / cpr;
    }
    /* Rows that conflict in one bank under a strided pattern land in
     * different banks: XOR with the row's low bits where the bank count is
     * a power of two, a modular rotation (also a permutation) otherwise. */
    if (p->xor_bank) {
        unsigned n = p->nbanks;
        loc->bank = (n & (n - 1)) == 0 ? (unsigned)((loc->bank ^ loc->row) & (n - 1))
                                       : (unsigned)((loc->bank + loc->row) % n);
    }
}
