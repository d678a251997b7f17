/**
 * The agent tools, in the order tools/list gives them (reads first, then writes). No SDK here:
 * the command line reads `--tools` against this list without loading the MCP server.
 */
export const TOOL_NAMES = [
  'list_pets',
  'get_pet',
  'smoke',
  'add_pet',
  'send_message',
  'add_pets',
] as const;

export type ToolName = (typeof TOOL_NAMES)[number];
