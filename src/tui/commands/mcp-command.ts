/**
 * `/mcp`: the MCP servers with their state, transport, sandbox and tools, then
 * a picker to reconnect one. Subcommands for the keyboard-minded:
 * `/mcp reconnect <name>`, `/mcp approve` (this project's waiting servers),
 * `/mcp tools <name>`.
 */
import type { McpServerView } from '../views.ts';
import { c, GLYPH } from '../render/theme.ts';
import type { CommandContext } from './slash-commands.ts';

export const MCP_USAGE = 'Usage: /mcp [reconnect <name> | approve | tools <name>]';

function stateCell(s: McpServerView): string {
  const k = c();
  switch (s.status) {
    case 'connected':
      return k.green(`${GLYPH.ok} connected`);
    case 'connecting':
      return k.cyan(`${GLYPH.bullet} connecting`);
    case 'failed':
      return k.red(`${GLYPH.error} failed`);
    case 'needs-auth':
      return k.yellow('! needs login');
    case 'needs-approval':
      return k.yellow('! waits for approval');
    case 'disabled':
      return k.gray('■ disabled');
  }
}

function serverLines(s: McpServerView): string[] {
  const k = c();
  const sandbox = s.transport !== 'stdio' ? 'remote' : s.sandboxed === undefined ? '' : s.sandboxed ? 'sandboxed' : 'not sandboxed';
  const counts = s.status === 'connected' ? `${s.tools.length} tools · ${s.prompts.length} prompts · ${s.resources.length} resources` : '';
  const facts = [s.transport, sandbox, counts, s.origin].filter((x) => x !== '').join(' · ');
  const lines = [`  ${k.bold(s.name)}  ${stateCell(s)}  ${k.dim(facts)}`];
  if (s.error !== undefined) lines.push(k.dim(`    ${s.error}`));
  return lines;
}

export function mcpCommand(arg: string, ctx: CommandContext): void {
  const k = c();
  const servers = ctx.queries.mcpServers();
  const [verb = '', name = ''] = arg.split(/\s+/);
  const find = (n: string) => servers.find((s) => s.name === n);
  if (verb === 'reconnect' || verb === 'tools') {
    const server = find(name);
    if (server === undefined) {
      ctx.notice('warning', name ? `No MCP server is called ${name}. /mcp lists them.` : MCP_USAGE);
      return;
    }
    if (verb === 'tools') {
      const lines = [k.bold(`${server.name}: ${server.tools.length} tools`), ...server.tools.map((t) => `  ${t}`)];
      for (const p of server.prompts) lines.push(`  /${p.command}${p.args.length > 0 ? ` ${p.args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ')}` : ''}  ${k.dim(p.description ?? 'prompt')}`);
      ctx.print(lines);
      return;
    }
    reconnect(server.name, ctx);
    return;
  }
  if (verb === 'approve') {
    const waiting = servers.filter((s) => s.status === 'needs-approval').map((s) => s.name);
    if (waiting.length === 0) {
      ctx.notice('info', 'No MCP server waits for approval.');
      return;
    }
    ctx.session.submit({ type: 'approve_mcp_servers', names: waiting });
    ctx.notice('info', `Approved ${waiting.join(', ')} for this folder; starting.`);
    return;
  }
  if (verb !== '') {
    ctx.notice('warning', MCP_USAGE);
    return;
  }
  if (servers.length === 0) {
    ctx.notice('info', 'No MCP servers. Add one with moat mcp add, in .mcp.json, or [mcp_servers.<name>] in config.toml.');
    return;
  }
  ctx.print([k.bold('MCP servers'), ...servers.flatMap(serverLines), k.dim(`  ${MCP_USAGE.replace('Usage: ', '')}`)]);
  const reconnectable = servers.filter((s) => s.status !== 'disabled' && s.status !== 'needs-approval');
  if (reconnectable.length === 0) return;
  ctx.openPicker({
    title: 'Reconnect an MCP server? (Esc: no)',
    items: reconnectable.map((s) => ({ label: s.name, value: s.name, detail: s.status })),
    onSelect: (n) => reconnect(n, ctx),
  });
}

function reconnect(name: string, ctx: CommandContext): void {
  ctx.notice('info', `Reconnecting ${name}…`);
  ctx.background(
    ctx.session.request({ type: 'reconnect_mcp', server: name }).then(() => {
      const s = ctx.queries.mcpServers().find((x) => x.name === name);
      if (s?.status === 'connected') ctx.notice('info', `${name} connected: ${s.tools.length} tools.`);
    }),
  );
}
