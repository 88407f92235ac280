/* core/regex_tame.h — whether a POSIX extended regular expression from
 * outside (a page's M, a task file's output_schema) is safe to hand to
 * glibc: its regcomp/regexec take exponential time or memory on stacked
 * quantifiers ("a+++"), backreferences and nested counted repeats
 * ("((a{99}){99}){99}" is a million-node tree), so such a pattern is not
 * compiled at all.  Owns nothing. */
#ifndef EOUS_CORE_REGEX_TAME_H
#define EOUS_CORE_REGEX_TAME_H

/* the longest pattern taken, in bytes */
#define EOUS_REGEX_MAX_PATTERN 256
/* the most quantifiers, and the largest product of its {m,n} bounds */
#define EOUS_REGEX_MAX_QUANTIFIERS 32
#define EOUS_REGEX_MAX_REPEAT 1000

/* 1 when pat is at most EOUS_REGEX_MAX_PATTERN bytes, has no backreference,
 * no quantifier right after another, at most EOUS_REGEX_MAX_QUANTIFIERS
 * quantifiers, and the product of its counted repeats' upper bounds (an
 * open {m,} counts m + 1) is at most EOUS_REGEX_MAX_REPEAT; else 0. */
int eous_regex_is_tame(const char *pat);

#endif
