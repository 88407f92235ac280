/* actions/rpa.h — what the RPA steps (wait, read, expect, upload, download)
 * leave on the executor, and the one check of a file a step may upload.
 *
 * Ownership: the JSON act_exec_output and act_exec_downloads return is the
 * executor's (borrowed until act_exec_free); act_files_resolve writes into
 * the caller's buffer. */
#ifndef EOUS_ACT_RPA_H
#define EOUS_ACT_RPA_H

#include "actions/exec.h"

/* {name: value} of the read steps so far, or NULL when none read anything.  A
 * read of rows into a name that holds rows appends them (a pager read page by
 * page gives every row); any other read replaces the name's value. */
const cJSON *act_exec_output(const act_exec *x);
/* [{name, size, mime, sha256, file}] of the files download steps saved, or NULL. */
const cJSON *act_exec_downloads(const act_exec *x);

/* The file `name` under dir as an absolute path in out (n bytes): name must be
 * relative, have no ".." part and no control character (a byte below 0x20,
 * 0x7f), and resolve (symlinks followed) to a regular file inside dir.
 * EOUS_E_POLICY naming the file when it escapes dir or holds a control byte,
 * EOUS_E_NOT_FOUND when it does not exist, EOUS_E_INVALID when dir is NULL.
 * The native provider's upload tool uses the same check. */
eous_rc act_files_resolve(const char *dir, const char *name, char *out, size_t n, eous_err *err);

#endif
