/* cli/cli_score.c — `eous score`: the evaluators over values read elsewhere,
 * so the repository has one evaluator.
 * - WebArena: JSON lines {"eval", "intent", "answer", "url", "values"} on
 *   stdin; one line {"score", "status", "detail"} out per input line.  No
 *   judge: fuzzy_match/ua_match give status "needs_judge".
 * - WebArena-Verified: {"task": <verified task>, "response": <answer, object
 *   or string>, "har": "<path>"} (one object, or one a line); one line out
 *   per task: {"task_id", "score", "status", "evaluators": [...]}.
 * - `eous score --run DIR`: re-scores a run directory offline from each
 *   trace/<task>-<mode>/ (task.json, agent_response.json, network.har), one
 *   line per task with the live score beside it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "webarena/eval.h"
#include "webarena/verified.h"
#include "cli/cli.h"
#include "cli/cli_help.h"

static void put_line(cJSON *o)
{
    char *txt = eous_json_print(o);
    if (txt)
        puts(txt);
    fflush(stdout);
    free(txt);
}

/* One verified input object; 2 on bad input (message printed). */
static int score_verified(const cJSON *in, const char *where)
{
    const cJSON *task = cJSON_GetObjectItemCaseSensitive(in, "task");
    if (!cJSON_IsObject(task) || !cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(task, "eval"))) {
        fprintf(stderr, "eous score: %s: \"task\" must be a WebArena-Verified task object (with an \"eval\" list)\n", where);
        return EOUS_EXIT_INPUT;
    }
    const cJSON *harp = cJSON_GetObjectItemCaseSensitive(in, "har");
    vf_har har = {0};
    if (harp && !cJSON_IsNull(harp)) {
        eous_err err;
        eous_err_clear(&err);
        if (!cJSON_IsString(harp)) {
            fprintf(stderr, "eous score: %s: \"har\" must be the path of a HAR file\n", where);
            return EOUS_EXIT_INPUT;
        }
        if (vf_har_load(harp->valuestring, &har, &err)) {
            fprintf(stderr, "eous score: HAR %s\n", err.msg);
            return EOUS_EXIT_INPUT;
        }
    }
    cJSON *r = vf_score_task(task, cJSON_GetObjectItemCaseSensitive(in, "response"), har.root ? &har : NULL);
    vf_har_free(&har);
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(task, "task_id");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "task_id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
    cJSON *c;
    while ((c = r->child)) {
        cJSON_DetachItemViaPointer(r, c);
        cJSON_AddItemToObject(o, c->string, c);
    }
    cJSON_Delete(r);
    put_line(o);
    cJSON_Delete(o);
    return 0;
}

static void score_webarena(const cJSON *in)
{
    wa_eval_observed obs = {
        .answer = eous_json_str(in, "answer"),
        .url = eous_json_str(in, "url"),
        .values = cJSON_GetObjectItemCaseSensitive(in, "values"),
    };
    wa_eval_result r;
    wa_score_observed(eous_json_obj(in, "eval"), eous_json_str(in, "intent"), &obs, NULL, &r);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "score", r.score);
    /* "unsupported" is this command's own word: the evaluator needs WebArena's site APIs */
    cJSON_AddStringToObject(o, "status", r.unsupported && !r.needs_judge ? "unsupported"
                                         : eous_status_name(r.needs_judge    ? EOUS_ST_NEEDS_JUDGE
                                                            : r.score >= 1.0 ? EOUS_ST_PASSED
                                                                             : EOUS_ST_FAILED));
    cJSON_AddStringToObject(o, "detail", r.detail);
    put_line(o);
    cJSON_Delete(o);
}

/* ---- --run DIR ---- */

static cJSON *read_json(const char *path)
{
    eous_err err;
    eous_err_clear(&err);
    return eous_json_parse_file(path, 0, &err);
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Re-scores every trace/<task>-<mode>/ holding a task.json; exit 1 when a
 * score differs from the live one, 2 on bad input. */
static int score_run(const char *dir)
{
    char tdir[4096];
    snprintf(tdir, sizeof tdir, "%s/trace", dir);
    struct dirent **names = NULL;
    int n = scandir(tdir, &names, NULL, alphasort);
    if (n < 0) {
        fprintf(stderr, "eous score: --run %s: no trace/ directory (expected a run directory of eous run/bench)\n", dir);
        return EOUS_EXIT_INPUT;
    }
    int scored = 0, differ = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        char base[4200], p[4400];
        snprintf(base, sizeof base, "%s/%s", tdir, names[i]->d_name);
        snprintf(p, sizeof p, "%s/task.json", base);
        if (names[i]->d_name[0] == '.' || !file_exists(p)) {
            free(names[i]);
            continue;
        }
        cJSON *task = read_json(p);
        snprintf(p, sizeof p, "%s/agent_response.json", base);
        cJSON *resp = file_exists(p) ? read_json(p) : NULL;
        snprintf(p, sizeof p, "%s/network.har", base);
        vf_har har = {0};
        eous_err err;
        eous_err_clear(&err);
        if (file_exists(p) && vf_har_load(p, &har, &err)) {
            fprintf(stderr, "eous score: HAR %s\n", err.msg);
            bad = 1;
        }
        snprintf(p, sizeof p, "%s/score.json", base);
        cJSON *live = file_exists(p) ? read_json(p) : NULL;
        if (!task) {
            fprintf(stderr, "eous score: %s/task.json: not JSON\n", base);
            bad = 1;
        } else {
            /* agent_response.json is the answer: an object, or a JSON string kept verbatim */
            cJSON *r = vf_score_task(task, resp, har.root ? &har : NULL);
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "run", names[i]->d_name);
            cJSON_AddItemToObject(o, "task_id", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(task, "task_id"), 1));
            cJSON_AddNumberToObject(o, "score", eous_json_num(r, "score", 0));
            cJSON_AddStringToObject(o, "status", eous_json_str(r, "status"));
            if (live) {
                double ls = eous_json_num(live, "score", -1);
                cJSON_AddNumberToObject(o, "live_score", ls);
                cJSON_AddBoolToObject(o, "same", ls == eous_json_num(r, "score", 0));
                differ += ls != eous_json_num(r, "score", 0);
            }
            cJSON_AddItemToObject(o, "evaluators", cJSON_DetachItemFromObjectCaseSensitive(r, "evaluators"));
            put_line(o);
            cJSON_Delete(o);
            cJSON_Delete(r);
            scored++;
        }
        vf_har_free(&har);
        cJSON_Delete(task);
        cJSON_Delete(resp);
        cJSON_Delete(live);
        free(names[i]);
    }
    free(names);
    if (!scored && !bad) {
        fprintf(stderr, "eous score: --run %s: no WebArena-Verified task under trace/ (trace/<task>-<mode>/task.json)\n", dir);
        return EOUS_EXIT_INPUT;
    }
    fprintf(stderr, "eous score: %d task(s) re-scored, %d differ from the live run\n", scored, differ);
    return bad ? EOUS_EXIT_INPUT : differ ? EOUS_EXIT_FAILED : EOUS_EXIT_OK;
}

/* ---- stdin ---- */

static int is_verified_input(const cJSON *in)
{
    return cJSON_IsObject(in) && cJSON_GetObjectItemCaseSensitive(in, "task");
}

int cli_score(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == '-' && !cli_own_opt_known(CLI_CMD_SCORE, argv[1])) {
        fprintf(stderr, "eous score: unknown option '%s' (see eous score --help)\n", argv[1]);
        return EOUS_EXIT_INPUT;
    }
    if (argc == 3 && !strcmp(argv[1], "--run"))
        return score_run(argv[2]);
    if (argc > 1) {
        fprintf(stderr, "eous score: expected no arguments (JSON on stdin) or --run DIR\n");
        return EOUS_EXIT_INPUT;
    }
    eous_buf in;
    eous_buf_init(&in, 0);
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, stdin)) > 0)
        eous_buf_append(&in, chunk, got, NULL);
    char *text = eous_buf_steal(&in);
    if (!text)
        text = strdup("");
    int bad = 0, scored = 0;
    /* a verified object may span lines (pretty-printed) */
    const char *end = NULL;
    cJSON *whole = cJSON_ParseWithOpts(text, &end, 0);
    if (whole && end && end[strspn(end, " \t\r\n")]) { /* more after it: JSON lines */
        cJSON_Delete(whole);
        whole = NULL;
    }
    if (is_verified_input(whole)) {
        bad = score_verified(whole, "stdin");
        scored = 1;
        cJSON_Delete(whole);
        free(text);
        return bad;
    }
    cJSON_Delete(whole);
    int lineno = 0;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (line[strspn(line, " \t\r")] == '\0')
            continue;
        cJSON *o = cJSON_Parse(line);
        char where[64];
        snprintf(where, sizeof where, "stdin line %d", lineno);
        if (is_verified_input(o)) {
            bad = score_verified(o, where);
        } else if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "eval"))) {
            score_webarena(o);
        } else {
            fprintf(stderr,
                    "eous score: %s: expected a JSON object with an \"eval\" object (WebArena) or a \"task\" "
                    "(WebArena-Verified)\n",
                    where);
            bad = EOUS_EXIT_INPUT;
        }
        cJSON_Delete(o);
        if (bad)
            break;
        scored++;
    }
    free(text);
    /* nothing to score is a mistake in the pipe feeding us, not a success */
    if (!bad && !scored) {
        fprintf(stderr, "eous score: stdin held no JSON line to score; expected {\"eval\": {...}, \"answer\": ..., "
                        "\"url\": ..., \"values\": [...]} one a line, or {\"task\": {...}, \"response\": ..., "
                        "\"har\": \"PATH\"}\n");
        bad = EOUS_EXIT_INPUT;
    }
    return bad;
}
