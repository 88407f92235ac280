/* mcp/mcp_history.c — browser_history and browser_undo (issue 53).  See mcp_server_int.h for how a tool file plugs in. */
#include "mcp/mcp_server_int.h"

const mcp_tool_table mcp_history_tools = {NULL, 0};
