/* tests/core/test_regex_tame.c — which outside patterns eous hands to glibc's
 * regcomp (core/regex_tame.h), and that a task file's schema refuses the
 * others in one line instead of compiling them (fuzz_task: a pattern of
 * stacked '+' and counted repeats took regcomp past 2 GB). */
#include <criterion/criterion.h>
#include <string.h>

#include "core/regex_tame.h"
#include "core/schema.h"

Test(regex_tame, ordinary_patterns_are_tame)
{
    const char *ok[] = {"^[0-9]+[.][0-9]{2}$", "^[A-Z]+$", "^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "(ab|cd)*e?",
                        "a{1000}", "(a{10}){100}", "x{2,}", "\\+\\+\\+", "[+*]+", "[]+*]?", "[^]*]+", "[[:digit:]+]{2}"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        cr_expect(eous_regex_is_tame(ok[i]), "%s should be tame", ok[i]);
}

Test(regex_tame, patterns_glibc_would_stall_on_are_not)
{
    const char *bad[] = {"a++", "^[0-9]+++++$", "(a)\\1", "a{1001}", "((a{10}){10}){11}", "(a{10,}){100}",
                         "a*{2}", "[ab]++", "[[:alpha:]]*+"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_expect(!eous_regex_is_tame(bad[i]), "%s should not be tame", bad[i]);
    char longp[EOUS_REGEX_MAX_PATTERN + 2];
    memset(longp, 'a', sizeof longp - 1);
    longp[sizeof longp - 1] = '\0';
    cr_expect(!eous_regex_is_tame(longp), "a pattern past %d bytes", EOUS_REGEX_MAX_PATTERN);
    char many[3 * (EOUS_REGEX_MAX_QUANTIFIERS + 1) + 1] = "";
    for (int i = 0; i <= EOUS_REGEX_MAX_QUANTIFIERS; i++)
        strcat(many, "ab*");
    cr_expect(!eous_regex_is_tame(many), "%s", many);
}

Test(regex_tame, a_task_schema_refuses_a_wild_pattern_in_one_line)
{
    cJSON *s = cJSON_Parse("{\"properties\":{\"Amount\":{\"pattern\":\"^[0-9]+[.]+++++++{2}$\"}}}");
    cr_assert(s);
    eous_err e;
    eous_err_clear(&e);
    cr_expect_eq(eous_schema_check(s, &e), EOUS_E_INVALID);
    cr_expect(strstr(e.msg, "output_schema at /properties/Amount/pattern: expected a regular expression of at most 256"),
              "%s", e.msg);
    cr_expect(!strchr(e.msg, '\n'), "%s", e.msg);
    cJSON_Delete(s);
}
