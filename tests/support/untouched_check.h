/* tests/support/untouched_check.h — the wiki suites' "doing nothing scores zero" check, for test files
 * (it asserts with Criterion): each task's untouched start page in one browser (ts_suite_untouched)
 * scores 0 with no answer and 0 for "N/A"; neither wiki suite has an unachievable task. */
#ifndef EOUS_TESTS_SUPPORT_UNTOUCHED_CHECK_H
#define EOUS_TESTS_SUPPORT_UNTOUCHED_CHECK_H

#include <criterion/criterion.h>

#include "support/browser.h"
#include "support/site.h"

/* dir: the suite's tasks (its site started); at least min_tasks of them; site names it in messages. */
static inline void ts_expect_untouched_scores_zero(const char *dir, int min_tasks, const char *site)
{
    ts_browser b;
    cr_assert_eq(ts_browser_start(&b, NULL), 0);
    ts_untouched u;
    int rc = ts_suite_untouched(b.session, dir, &u);
    ts_browser_stop(&b);
    cr_assert_eq(rc, 0, "every task's start page and evaluators ran (stderr says which did not)");
    cr_assert_eq(u.tasks, ts_suite_count(dir), "every task evaluated");
    cr_assert_geq(u.tasks, min_tasks);
    cr_expect_eq(u.zero, u.tasks, "every task scores 0 with nothing done: %s", u.wrong);
    cr_expect_eq(u.na_right, u.tasks, "every task scores 0 for stop(N/A) (none is unachievable): %s", u.wrong);
    cr_expect_eq(u.unachievable, 0, "no %s task is unachievable", site);
}

#endif
