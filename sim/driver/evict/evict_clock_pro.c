/* CLOCK-Pro (Jiang, Chen, Zhang, USENIX ATC 2005, Sec. 4), at page
 * granularity.  One clock holds hot pages, resident cold pages and
 * non-resident cold pages in their test period; "the list head" is just
 * behind HAND_hot, so every page a hand passes is, for the clock, newer than
 * every page ahead of the hands.  Three hands, as Sec. 4.3 words them:
 *   HAND_cold (victim): a cold page with its reference bit clear is
 *     evicted (kept as a non-resident test page if in its test period,
 *     else removed); with the bit set the bit is cleared and the page goes
 *     to the list head: as a hot page if it was in its test period (then
 *     HAND_hot runs), else as a cold page starting a new test period (the
 *     paper changes no status here; LIRS's resident HIR page re-entering
 *     the stack starts one).  After an eviction the hand stops at the next
 *     resident cold page.
 *   HAND_hot (while hot pages > m_h = m - m_c): hot pages with the bit set
 *     are spared (bit cleared); the first one without turns cold; cold pages
 *     it passes end their test period, non-resident ones leave the clock;
 *     the hand keeps moving and stops at the next hot page.  When it passes
 *     HAND_test, HAND_test goes along: every page behind HAND_hot has ended
 *     its test period, so the oldest page still in one lies ahead of it.
 *   HAND_test (while non-resident test pages > m): ends the test period of
 *     the cold page it points to, removing it if non-resident, then stops
 *     at the next cold page.
 * A fault on a non-resident test page makes it hot at the head (then
 * HAND_hot runs); another fault inserts a cold page in its test period at
 * the head, except while memory first fills, when the first m_h pages are
 * hot.  A prefetched page (no fault asked for it) is resident cold without
 * a test period, or, when it is a non-resident test page, resident in
 * place with its test period running: nothing accessed it yet.  Accesses
 * set the reference bit only.  m_c = 128 as in HPE Sec. V-B (fixed;
 * driver.evict.clock_pro.adaptive gives the paper's adaptation, Sec. 4.3);
 * capped at m - 1 so that a resident cold page always exists. */
#include <stdlib.h>
#include "evict.h"
#include "driver/mem/mem.h"
#include "config/config.h"
#include "core/stats.h"

#define NIL UINT32_MAX

enum kind { HOT, COLD, NONRES };

struct node { uint64_t vpn; uint32_t prev, next; uint8_t kind, ref, test; };

struct cp {
    struct node *n;
    uint32_t free_head, hand_hot, hand_cold, hand_test;
    uint64_t m, mc, mh, n_hot, n_cold, n_nonres, steps;
    bool adaptive, filled;
    struct page_map map;
    uint64_t *promoted, *demoted, own_promoted, own_demoted;
};

static void *cp_create(const struct config *cfg, uint64_t capacity)
{
    struct cp *c = xcalloc(1, sizeof *c);
    uint64_t pool = 2 * capacity + 2;
    c->n = xcalloc(pool, sizeof *c->n);
    for (uint64_t i = 0; i < pool; i++) c->n[i].next = i + 1 < pool ? (uint32_t)(i + 1) : NIL;
    c->free_head = 0;
    c->hand_hot = c->hand_cold = c->hand_test = NIL;
    c->m = capacity;
    uint64_t mc = cfg_u64(cfg, "driver.evict.clock_pro.cold"), top = capacity > 1 ? capacity - 1 : 1;
    c->mc = mc < 1 ? 1 : mc > top ? top : mc;
    c->mh = capacity - c->mc;
    c->adaptive = cfg_bool(cfg, "driver.evict.clock_pro.adaptive");
    page_map_init(&c->map, pool);
    c->promoted = &c->own_promoted;
    c->demoted = &c->own_demoted;
    return c;
}

static void insert_head(struct cp *c, uint32_t i)
{
    struct node *x = &c->n[i];
    if (c->hand_hot == NIL) {
        x->prev = x->next = i;
        c->hand_hot = c->hand_cold = c->hand_test = i;
        return;
    }
    uint32_t h = c->hand_hot, p = c->n[h].prev;
    x->prev = p;
    x->next = h;
    c->n[p].next = i;
    c->n[h].prev = i;
}

static void unlink_node(struct cp *c, uint32_t i)
{
    struct node *x = &c->n[i];
    uint32_t nx = x->next == i ? NIL : x->next;
    if (c->hand_hot == i) c->hand_hot = nx;
    if (c->hand_cold == i) c->hand_cold = nx;
    if (c->hand_test == i) c->hand_test = nx;
    if (nx != NIL) {
        c->n[x->prev].next = x->next;
        c->n[x->next].prev = x->prev;
    }
}

static void free_node(struct cp *c, uint32_t i)
{
    unlink_node(c, i);
    page_map_erase(&c->map, c->n[i].vpn);
    c->n[i].next = c->free_head;
    c->free_head = i;
}

static void move_head(struct cp *c, uint32_t i)
{
    unlink_node(c, i);
    insert_head(c, i);
}

/* A test period ends; without the adaptation nothing else changes.  With
 * it, a cold page that used up its test period unreferenced lowers m_c
 * (Sec. 4.3); one whose bit is set was re-accessed in it. */
static void end_test(struct cp *c, struct node *x)
{
    if (!x->test) return;
    x->test = 0;
    if (c->adaptive && !x->ref && c->mc > 1) { c->mc--; c->mh++; }
}

static void hit_in_test(struct cp *c)
{
    if (c->adaptive && c->mc + 1 < c->m) { c->mc++; c->mh--; }
}

/* HAND_hot moves past its page; HAND_test standing there goes along. */
static void hot_forward(struct cp *c)
{
    uint32_t i = c->hand_hot;
    if (c->hand_test == i) c->hand_test = c->n[i].next;
    c->hand_hot = c->n[i].next;
}

/* HAND_hot: turn one hot page cold, then stop at the next hot page; cold
 * pages passed on the way end their test period (non-resident ones leave). */
static void run_hot(struct cp *c)
{
    bool demoted = false;
    for (;;) {
        uint32_t i = c->hand_hot;
        struct node *x = &c->n[i];
        if (x->kind == HOT) {
            if (demoted) return;
            c->steps++;
            if (!x->ref) {
                x->kind = COLD;
                x->test = 0;
                c->n_hot--;
                c->n_cold++;
                *c->demoted += 1;
                demoted = true;
                if (!c->n_hot) { hot_forward(c); return; }
            }
            x->ref = 0;
            hot_forward(c);
            continue;
        }
        c->steps++;
        end_test(c, x);
        if (x->kind == NONRES) { free_node(c, i); c->n_nonres--; }   /* unlink moves both hands */
        else hot_forward(c);
    }
}

/* HAND_test: end the test period of the cold page it points to (the oldest
 * in one), then stop at the next cold page. */
static void run_test(struct cp *c)
{
    for (;;) {
        uint32_t i = c->hand_test;
        struct node *x = &c->n[i];
        c->steps++;
        if (x->kind == HOT || !x->test) { c->hand_test = x->next; continue; }
        end_test(c, x);
        if (x->kind == NONRES) { free_node(c, i); c->n_nonres--; }
        else c->hand_test = x->next;
        break;
    }
    if (c->n_cold + c->n_nonres)
        while (c->n[c->hand_test].kind == HOT) c->hand_test = c->n[c->hand_test].next;
}

static void trim(struct cp *c)
{
    while (c->n_nonres > c->m) run_test(c);
    while (c->n_hot > c->mh) run_hot(c);
}

static void promote(struct cp *c, uint32_t i)
{
    struct node *x = &c->n[i];
    x->kind = HOT;
    x->ref = x->test = 0;
    c->n_hot++;
    *c->promoted += 1;
    hit_in_test(c);
    move_head(c, i);
}

static void cp_on_resident(void *p, uint64_t vpn)
{
    struct cp *c = p;
    uint32_t i = page_map_get(&c->map, vpn);
    if (i != PAGE_MAP_NONE) {
        SIM_ASSERT(c->n[i].kind == NONRES, "evict.clock_pro", 0, "page %llu faulted while resident",
                   (unsigned long long)vpn);
        c->n_nonres--;
        promote(c, i);
    } else {
        i = c->free_head;
        if (i == NIL) sim_panic("evict.clock_pro", 0, "node pool exhausted");
        c->free_head = c->n[i].next;
        struct node *x = &c->n[i];
        *x = (struct node){ .vpn = vpn, .kind = COLD, .test = 1 };
        if (!c->filled && c->n_hot < c->mh) { x->kind = HOT; x->test = 0; c->n_hot++; }
        else c->n_cold++;
        page_map_put(&c->map, vpn, i);
        insert_head(c, i);
    }
    if (c->n_hot + c->n_cold == c->m) c->filled = true;
    trim(c);
}

static void cp_prefetched(void *p, uint64_t vpn)
{
    struct cp *c = p;
    uint32_t i = page_map_get(&c->map, vpn);
    if (i != PAGE_MAP_NONE) {
        SIM_ASSERT(c->n[i].kind == NONRES, "evict.clock_pro", 0, "page %llu prefetched while resident",
                   (unsigned long long)vpn);
        c->n_nonres--;
        c->n[i].kind = COLD;
        c->n[i].ref = 0;
    } else {
        i = c->free_head;
        if (i == NIL) sim_panic("evict.clock_pro", 0, "node pool exhausted");
        c->free_head = c->n[i].next;
        c->n[i] = (struct node){ .vpn = vpn, .kind = COLD };
        page_map_put(&c->map, vpn, i);
        insert_head(c, i);
    }
    c->n_cold++;
    if (c->n_hot + c->n_cold == c->m) c->filled = true;
}

static void cp_touch(void *p, uint64_t vpn)
{
    struct cp *c = p;
    uint32_t i = page_map_get(&c->map, vpn);
    if (i != PAGE_MAP_NONE && c->n[i].kind != NONRES) c->n[i].ref = 1;
}

static bool cp_victim(void *p, uint64_t *vpn)
{
    struct cp *c = p;
    c->steps = 0;
    if (!c->n_cold && !c->n_hot) return false;
    if (!c->n_cold) run_hot(c);          /* m = 1 after adapting: nothing cold */
    for (;;) {
        uint32_t i = c->hand_cold;
        struct node *x = &c->n[i];
        c->steps++;
        if (x->kind != COLD) { c->hand_cold = x->next; continue; }
        if (!x->ref) {
            *vpn = x->vpn;
            c->n_cold--;
            if (x->test) {
                c->hand_cold = x->next;
                x->kind = NONRES;
                c->n_nonres++;
            } else {
                free_node(c, i);
            }
            trim(c);
            /* "... and stops at the next resident cold page" (Sec. 4.3) */
            if (c->n_cold)
                while (c->n[c->hand_cold].kind != COLD) c->hand_cold = c->n[c->hand_cold].next;
            return true;
        }
        x->ref = 0;
        if (x->test) {
            c->n_cold--;
            promote(c, i);
            trim(c);
        } else {
            x->test = 1;
            move_head(c, i);
        }
    }
}

int evict_clock_pro_status(void *p, uint64_t vpn)
{
    struct cp *c = p;
    uint32_t i = page_map_get(&c->map, vpn);
    if (i == PAGE_MAP_NONE) return CP_ABSENT;
    const struct node *x = &c->n[i];
    return x->kind == HOT ? CP_HOT : x->kind == NONRES ? CP_NONRES_TEST
         : x->test ? CP_COLD_TEST : CP_COLD;
}

void evict_clock_pro_hands(void *p, uint64_t *hot, uint64_t *cold, uint64_t *test)
{
    const struct cp *c = p;
    *hot = c->hand_hot == NIL ? UINT64_MAX : c->n[c->hand_hot].vpn;
    *cold = c->hand_cold == NIL ? UINT64_MAX : c->n[c->hand_cold].vpn;
    *test = c->hand_test == NIL ? UINT64_MAX : c->n[c->hand_test].vpn;
}

static uint64_t cp_last_search(void *p) { return ((struct cp *)p)->steps; }

static void cp_register_stats(void *p, struct stats *st)
{
    struct cp *c = p;
    c->promoted = stat_counter(st, "evict.clock_pro.promotions", "pages",
                               "cold pages turned hot (re-accessed in their test period)");
    c->demoted = stat_counter(st, "evict.clock_pro.demotions", "pages", "hot pages turned cold by HAND_hot");
}

static void cp_destroy(void *p)
{
    struct cp *c = p;
    page_map_free(&c->map);
    free(c->n);
    free(c);
}

const struct evict_ops evict_clock_pro_ops = {
    .name = "clock-pro", .create = cp_create, .on_resident = cp_on_resident,
    .touch = cp_touch, .victim = cp_victim, .destroy = cp_destroy,
    .prefetched = cp_prefetched, .last_search = cp_last_search, .register_stats = cp_register_stats,
};
