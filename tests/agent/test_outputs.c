/* tests/agent/test_outputs.c — a task's output in its results.jsonl line
 * (agent/outputs.h), without a browser: inline up to 64 KiB, else only in
 * output.json, so a run's result lines stay readable. */
#include <criterion/criterion.h>
#include <string.h>

#include "agent/outputs.h"

Test(outputs, big_output_stays_in_its_file)
{
    agent_result r;
    memset(&r, 0, sizeof r);
    r.rpa.output = cJSON_CreateObject();
    cJSON *rows = cJSON_AddArrayToObject(r.rpa.output, "rows");
    cJSON_AddItemToArray(rows, cJSON_CreateString("a row"));
    snprintf(r.rpa.output_file, sizeof r.rpa.output_file, "trace/t-hybrid/output.json");
    cJSON *line = cJSON_CreateObject();
    agent_outputs_json(&r, line);
    cr_expect(cJSON_IsObject(cJSON_GetObjectItem(line, "output")), "a small output is inline");
    cJSON_Delete(line);
    char cell[1024];
    memset(cell, 'x', sizeof cell - 1);
    cell[sizeof cell - 1] = '\0';
    for (int i = 0; i < 80; i++)
        cJSON_AddItemToArray(rows, cJSON_CreateString(cell));
    line = cJSON_CreateObject();
    agent_outputs_json(&r, line);
    cr_expect_null(cJSON_GetObjectItem(line, "output"), "80 KiB stay in output.json");
    cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(line, "output_in_file_only")));
    cr_expect_str_eq(cJSON_GetObjectItem(line, "output_file")->valuestring, "trace/t-hybrid/output.json");
    cJSON_Delete(line);
    cJSON_Delete(r.rpa.output);
}
