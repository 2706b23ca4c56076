/* The one main() every Check suite shares: run, report, exit status. */
#ifndef UVMSIM_TEST_SUITE_MAIN_H
#define UVMSIM_TEST_SUITE_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
