/** The MCP clients `petstore mcp --print-config` writes a registration for. */
export const MCP_CLIENTS = ['claude', 'cursor', 'vscode'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** Where each client reads its servers from, for the person pasting the snippet. */
const WHERE: Record<McpClient, string> = {
  claude:
    'Claude Code: .mcp.json in the project (or claude mcp add-json petstore \'<the "petstore" object>\'); Claude Desktop: claude_desktop_config.json',
  cursor: 'Cursor: .cursor/mcp.json in the project, or ~/.cursor/mcp.json',
  vscode: 'VS Code: .vscode/mcp.json in the workspace',
};

/**
 * The snippet that registers `petstore mcp` in a client: the command and its arguments (the
 * profile, fixed), never a key. The server reads the key as every command does.
 */
export function mcpClientConfig(
  client: McpClient,
  self: readonly string[],
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): string {
  // The program as it runs now, by absolute paths: a client starts it without a shell (no
  // alias, and often another PATH).
  const server = {
    command: self[0] ?? 'petstore',
    args: [...self.slice(1), 'mcp', ...args],
    ...(Object.keys(env).length > 0 ? { env: { ...env } } : {}),
  };
  const config =
    client === 'vscode'
      ? { servers: { petstore: { type: 'stdio', ...server } } }
      : { mcpServers: { petstore: server } };
  return JSON.stringify(config, null, 2) + '\n';
}

export function mcpClientWhere(client: McpClient): string {
  return WHERE[client];
}
