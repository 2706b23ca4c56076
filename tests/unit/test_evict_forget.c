/* The forget op (a page leaving GPU memory without being chosen, as a
 * prefetch to the host): FIFO (tombstones), LRU and random never return a
 * forgotten page and keep their own order for the rest. */
#include <check.h>
#include "suite_main.h"
#include "config/config.h"
#include "driver/evict/evict.h"

static struct config *cfg(void)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, NULL, 0, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

/* Victims until none, into out; returns the count. */
static unsigned drain(struct evictor *ev, uint64_t *out, unsigned max)
{
    unsigned n = 0;
    uint64_t v;
    while (n < max && evictor_victim(ev, &v)) out[n++] = v;
    return n;
}

/* 3 frames: 1 2 3 resident, 2 forgotten: FIFO gives 1 then 3.  Again with
 * 4 mapped after the forget (the full ring compacts): 1 3 4.  A page
 * forgotten and mapped again comes in its new place: 2 frames, 5 6, forget
 * 5, map 5: 6 then 5. */
START_TEST(fifo_skips_forgotten_pages)
{
    struct config *c = cfg();
    struct evictor *ev = evictor_create(c, "fifo", 3, NULL);
    ck_assert(evictor_can_forget(ev));
    uint64_t out[8];
    for (uint64_t v = 1; v <= 3; v++) evictor_resident(ev, v, false);
    evictor_forget(ev, 2);
    ck_assert_uint_eq(drain(ev, out, 8), 2);
    ck_assert_uint_eq(out[0], 1);
    ck_assert_uint_eq(out[1], 3);
    for (uint64_t v = 1; v <= 3; v++) evictor_resident(ev, v, false);
    evictor_forget(ev, 2);
    evictor_resident(ev, 4, false);
    ck_assert_uint_eq(drain(ev, out, 8), 3);
    ck_assert_uint_eq(out[0], 1);
    ck_assert_uint_eq(out[1], 3);
    ck_assert_uint_eq(out[2], 4);
    evictor_free(ev);
    ev = evictor_create(c, "fifo", 2, NULL);
    evictor_resident(ev, 5, false);
    evictor_resident(ev, 6, false);
    evictor_forget(ev, 5);
    evictor_resident(ev, 5, false);
    ck_assert_uint_eq(drain(ev, out, 8), 2);
    ck_assert_uint_eq(out[0], 6);
    ck_assert_uint_eq(out[1], 5);
    evictor_free(ev);
    config_free(c);
}
END_TEST

/* LRU and random: of 1..4 with 2 and 3 forgotten, only 1 and 4 come
 * (LRU in recency order: 1 then 4). */
START_TEST(lru_and_random_skip_forgotten_pages)
{
    struct config *c = cfg();
    static const char *const pol[] = { "lru", "random" };
    for (int k = 0; k < 2; k++) {
        struct evictor *ev = evictor_create(c, pol[k], 4, NULL);
        uint64_t out[8];
        for (uint64_t v = 1; v <= 4; v++) evictor_resident(ev, v, false);
        evictor_forget(ev, 2);
        evictor_forget(ev, 3);
        ck_assert_uint_eq(drain(ev, out, 8), 2);
        ck_assert(out[0] != 2 && out[0] != 3 && out[1] != 2 && out[1] != 3);
        ck_assert_uint_ne(out[0], out[1]);
        if (k == 0) { ck_assert_uint_eq(out[0], 1); ck_assert_uint_eq(out[1], 4); }
        evictor_free(ev);
    }
    config_free(c);
}
END_TEST

static Suite *forget_suite(void)
{
    Suite *s = suite_create("evict_forget");
    TCase *tc = tcase_create("forget");
    tcase_add_test(tc, fifo_skips_forgotten_pages);
    tcase_add_test(tc, lru_and_random_skip_forgotten_pages);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(forget_suite()); }
