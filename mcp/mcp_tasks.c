/* mcp/mcp_tasks.c — task_list, task_start, task_submit (issue 51).  See mcp_server_int.h for how a tool file plugs in. */
#include "mcp/mcp_server_int.h"

const mcp_tool_table mcp_tasks_tools = {NULL, 0};
