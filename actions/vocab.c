/* actions/vocab.c — the action vocabulary: one row per verb, read by the
 * parsers (parse.c), act_kind_name, and llm/prompt.c for the model's tool
 * schemas and the prompt's list of actions.  Everything a model or a task
 * file is told about an action is written here once. */
#include "actions/action.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The id argument of element actions, as the tool schemas describe it. */
#define ID_PROP "\"id\":{\"type\":\"string\"}"

static const act_verb verbs[] = {
    {.name = "call",
     .kind = ACT_CALL,
     .tool_keys = {"k", "tool", "params"},
     .tool_sig = "{\"k\": <component id or key>, \"tool\": <string>, \"params\": <object>}",
     /* sent on every hybrid request: the view's component lines say which tools and params exist */
     .tool_description = "Run a component's tool; prefer it to click and type.",
     .tool_props = "{\"k\":{\"type\":\"string\",\"description\":\"e.g. c3\"},\"tool\":{\"type\":\"string\"},"
                   "\"params\":{\"type\":\"object\"}}",
     .text_sig = "call [k] [tool] [{\"param\": value}]",
     .text_help = "run tool of component k (e.g. call [c3] [setValue] [{\"date\": \"2025-12-31\"}]). Prefer it "
                  "whenever the component offers a tool for what you want; parameters must satisfy the "
                  "constraints listed with the tool.",
     .script_keys = {"tool", "params", "from"},
     .script_sig = "{\"call\": <component>, \"tool\": <string>, \"params\": <object>}"},
    {.name = "click",
     .kind = ACT_CLICK,
     .tool_keys = {"id"},
     .tool_sig = "{\"id\": <element id>}",
     .tool_description = "Click an element.",
     .tool_props = "{" ID_PROP "}",
     .text_sig = "click [id]",
     .text_help = "click the element with this id.",
     .script_sig = "{\"click\": <target>}"},
    {.name = "type",
     .kind = ACT_TYPE,
     .tool_keys = {"id", "text", "enter"},
     .tool_optional = {"clear"},
     .tool_sig = "{\"id\": <element id>, \"text\": <string>, \"enter\": <bool>, \"clear\"?: <bool>}",
     .tool_description = "Type into a field (cleared first unless clear is false).",
     .tool_props = "{" ID_PROP ",\"text\":{\"type\":\"string\"},"
                   "\"enter\":{\"type\":\"boolean\",\"description\":\"then press Enter\"},"
                   "\"clear\":{\"type\":\"boolean\",\"description\":\"false: type after what it holds\"}}",
     .text_sig = "type [id] [text] [0|1]",
     .text_usage = "type [id] [text] [press_enter_after=0|1]",
     .text_help = "clear the field, type text; Enter is pressed after typing unless the last field is 0.",
     .script_keys = {"text", "enter", "clear", "from"},
     .script_sig = "{\"type\": <target>, \"text\": <string>, \"enter\": <bool>, \"clear\": <bool>}"},
    {.name = "hover",
     .kind = ACT_HOVER,
     .tool_keys = {"id"},
     .tool_sig = "{\"id\": <element id>}",
     .tool_description = "Hover over an element.",
     .tool_props = "{" ID_PROP "}",
     .text_sig = "hover [id]",
     .text_help = "move the mouse over the element.",
     .script_sig = "{\"hover\": <target>}"},
    {.name = "press",
     .kind = ACT_PRESS,
     .tool_keys = {"keys"},
     .tool_sig = "{\"keys\": <key combination like \"Control+a\">}",
     .tool_description = "Press keys.",
     .tool_props = "{\"keys\":{\"type\":\"string\",\"description\":\"e.g. Control+a\"}}",
     .text_sig = "press [key_comb]",
     .text_help = "press a key combination, e.g. press [Enter] or press [Control+a].",
     .script_sig = "{\"press\": <key combination>}"},
    {.name = "scroll",
     .kind = ACT_SCROLL,
     .tool_keys = {"direction"},
     .tool_sig = "{\"direction\": \"up\" | \"down\"}",
     .tool_description = "Scroll the page.",
     .tool_props = "{\"direction\":{\"type\":\"string\",\"enum\":[\"up\",\"down\"]}}",
     .text_sig = "scroll [up|down]",
     .text_usage = "scroll [down] or scroll [up]",
     .text_help = "scroll the page.",
     .script_sig = "{\"scroll\": \"up\" | \"down\"}"},
    {.name = "select",
     .kind = ACT_SELECT,
     .tool_keys = {"id", "option"},
     .tool_sig = "{\"id\": <element id>, \"option\": <string>}",
     .tool_description = "Choose an option of a select.",
     .tool_props = "{" ID_PROP ",\"option\":{\"type\":\"string\",\"description\":\"its label\"}}",
     .text_sig = "select [id] [option]",
     .text_help = "choose option (its label) in a select element.",
     .script_keys = {"option", "from"},
     .script_sig = "{\"select\": <target>, \"option\": <string>}"},
    {.name = "goto",
     .kind = ACT_GOTO,
     .tool_keys = {"url"},
     .tool_sig = "{\"url\": <string>}",
     .tool_description = "Open a URL.",
     .tool_props = "{\"url\":{\"type\":\"string\"}}",
     .text_sig = "goto [url]",
     .text_help = "open url.",
     .script_sig = "{\"goto\": <url>}"},
    {.name = "go_back",
     .kind = ACT_GO_BACK,
     .tool_sig = "{}",
     .tool_description = "Go back.",
     .tool_props = "{}",
     .text_sig = "go_back",
     .text_help = "the previous page.",
     .script_sig = "{\"go_back\": true}"},
    {.name = "go_forward",
     .kind = ACT_GO_FORWARD,
     .tool_sig = "{}",
     .tool_description = "Go forward.",
     .tool_props = "{}",
     .text_sig = "go_forward",
     .text_help = "the next page.",
     .script_sig = "{\"go_forward\": true}"},
    {.name = "tab_focus",
     .kind = ACT_TAB_FOCUS,
     .tool_keys = {"index"},
     .tool_sig = "{\"index\": <tab number from 0>}",
     .tool_description = "Switch tab.",
     .tool_props = "{\"index\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"from 0\"}}",
     .text_sig = "tab_focus [tab_index]",
     .text_help = "switch to the browser tab with this index (from 0).",
     .script_sig = "{\"tab_focus\": <tab number from 0>}"},
    {.name = "close_tab",
     .kind = ACT_CLOSE_TAB,
     .tool_sig = "{}",
     .tool_description = "Close the tab.",
     .tool_props = "{}",
     .text_sig = "close_tab",
     .text_help = "close the current tab.",
     .script_sig = "{\"close_tab\": true}"},
    {.name = "stop",
     .kind = ACT_STOP,
     .tool_keys = {"answer"},
     .tool_sig = "{\"answer\": <string, may be empty>}",
     .tool_description = "Finish the task.",
     .tool_props = "{\"answer\":{\"type\":\"string\",\"description\":\"what the objective asks; empty if "
                   "nothing; N/A if impossible\"}}",
     .text_sig = "stop [answer]",
     .text_help = "finish. Put the answer the objective asks for in the brackets, or leave them empty when no "
                  "answer is needed. If the task cannot be done, use stop [N/A].",
     .script_keys = {"from"},
     .script_sig = "{\"stop\": <answer>, \"from\"?: <the rule that computed it from what the page showed>}"},
    /* RPA steps: wait, expect, upload and download are script steps only; read is a model tool too */
    {.name = "wait",
     .kind = ACT_WAIT,
     .tool_sig = "{}",
     .tool_description = "Wait for the page.",
     .tool_props = "{}",
     .text_sig = "wait",
     .text_help = "(script steps only)",
     .script_sig = "{\"wait\": {\"text\" | \"target\" | \"url\" | \"gone\": <string> | \"network_idle\": true, "
                   "\"timeout_ms\"?: <ms>}}",
     .script_only = 1},
    {.name = "read",
     .kind = ACT_READ,
     .tool_keys = {"id", "as", "what"},
     .tool_sig = "{\"id\": <element or component id>, \"as\": <output name>, \"what\": \"rows\" | \"value\" | "
                 "\"text\" | \"state\"}",
     .tool_description = "Read data from the page into the task's output: a table's rows, a field's value, an "
                         "element's text or a component's state.",
     .tool_props = "{" ID_PROP ",\"as\":{\"type\":\"string\",\"description\":\"the output's name\"},"
                   "\"what\":{\"type\":\"string\",\"enum\":[\"rows\",\"value\",\"text\",\"state\"]}}",
     .text_sig = "read [id] [name] [rows|value|text|state]",
     .text_help = "put a table's rows, a field's value, an element's text or a component's state into the output "
                  "under name.",
     .script_keys = {"as", "what"},
     .script_sig = "{\"read\": <target or component>, \"as\": <name>, \"what\": \"rows\" | \"value\" | \"text\" | "
                   "\"state\"}"},
    {.name = "expect",
     .kind = ACT_EXPECT,
     .tool_sig = "{}",
     .tool_description = "Check the page.",
     .tool_props = "{}",
     .text_sig = "expect",
     .text_help = "(script steps only)",
     .script_sig = "{\"expect\": {\"text\": <string>} | {\"url\": <string>} | {\"value\": <string>, \"of\": "
                   "<target>} | {\"count\": <n>, \"of\": <target or output name>}}",
     .script_only = 1},
    {.name = "upload",
     .kind = ACT_UPLOAD,
     .tool_sig = "{}",
     .tool_description = "Upload files.",
     .tool_props = "{}",
     .text_sig = "upload",
     .text_help = "(script steps only)",
     .script_keys = {"files"},
     .script_sig = "{\"upload\": <file input target>, \"files\": [<file name in the files folder>, ...]}",
     .script_only = 1},
    {.name = "download",
     .kind = ACT_DOWNLOAD,
     .tool_sig = "{}",
     .tool_description = "Download a file.",
     .tool_props = "{}",
     .text_sig = "download",
     .text_help = "(script steps only)",
     .script_sig = "{\"download\": <target that starts the download, or the http(s) URL of a file>, \"timeout_ms\"?: <ms>}",
     .script_only = 1},
};
#define N_VERBS (sizeof verbs / sizeof *verbs)

const act_verb *act_verbs(size_t *n)
{
    *n = N_VERBS;
    return verbs;
}

const act_verb *act_verb_find(const char *s, size_t n)
{
    for (size_t i = 0; i < N_VERBS; i++)
        if (strlen(verbs[i].name) == n && strncmp(verbs[i].name, s, n) == 0)
            return &verbs[i];
    return NULL;
}

static char verb_names[256];
static pthread_once_t verb_names_once = PTHREAD_ONCE_INIT;

static void build_verb_names(void)
{
    size_t len = 0;
    for (size_t i = 0; i < N_VERBS && len < sizeof verb_names; i++)
        len += (size_t)snprintf(verb_names + len, sizeof verb_names - len, "%s%s", i ? ", " : "", verbs[i].name);
}

const char *act_verb_names(void)
{
    pthread_once(&verb_names_once, build_verb_names);
    return verb_names;
}

int act_kind_has_target(act_kind k)
{
    return k == ACT_CALL || k == ACT_CLICK || k == ACT_TYPE || k == ACT_HOVER || k == ACT_SELECT;
}

const char *act_path_name(act_path p)
{
    static const char *const names[] = {[ACT_PATH_NONE] = "none", [ACT_PATH_SEMANTIC] = "semantic",
                                        [ACT_PATH_ATOMIC] = "atomic"};
    return (unsigned)p < sizeof names / sizeof *names ? names[p] : "none";
}

const char *act_kind_name(act_kind k)
{
    for (size_t i = 0; i < N_VERBS; i++)
        if (verbs[i].kind == k)
            return verbs[i].name;
    return "none";
}
