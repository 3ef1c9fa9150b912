/** `moat acp`: the composition root of moat as an Agent Client Protocol agent on stdin/stdout. */
import pkg from '../../package.json' with { type: 'json' };
import { ndJsonStream, serveAcp, type AcpOpenRequest, type AcpSession, type McpServer } from '../acp/index.ts';
import { EXIT } from './exit-codes.ts';
import { openClientSession } from './client-session.ts';
import { editorFileTools } from './editor-file-tools.ts';
import { editorTerminalTools } from './editor-terminal-bash.ts';
import { TERMINAL_LAUNCH_SUBCOMMAND } from './acp-terminal-launch.ts';
import { isCompiledBinary } from '../sandbox/index.ts';
import { join } from 'node:path';
import type { AnyTool } from '../tools/index.ts';
import { modelInfos } from './model-choices.ts';
import { err, out } from './write-out.ts';

/** The servers an editor hands over, as one `--mcp-config` text: they start like any flag-given server, stdio ones in the OS sandbox. */
export function mcpConfigOf(servers: readonly McpServer[]): string[] {
  if (servers.length === 0) return [];
  const mcpServers: Record<string, unknown> = {};
  for (const s of servers) {
    if ('type' in s && (s.type === 'http' || s.type === 'sse')) {
      mcpServers[s.name] = { type: s.type, url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
    } else if ('command' in s) {
      mcpServers[s.name] = { command: s.command, args: s.args, env: Object.fromEntries(s.env.map((e) => [e.name, e.value])) };
    }
  }
  return [JSON.stringify({ mcpServers })];
}

const warn = (line: string) => err(`moat: ${line}\n`);

/** What an editor's terminal starts: this moat's hidden launcher (from source under bun, the entry file). */
function terminalLauncher(): string[] {
  return isCompiledBinary() ? [process.execPath, TERMINAL_LAUNCH_SUBCOMMAND] : [process.execPath, join(import.meta.dir, '..', 'main.ts'), TERMINAL_LAUNCH_SUBCOMMAND];
}

async function openForEditor(request: AcpOpenRequest): Promise<AcpSession> {
  let id = '';
  const files = request.files?.(() => id);
  const terminals = request.terminals?.(() => id);
  const changes: ((tools: AnyTool[]) => AnyTool[])[] = [];
  if (files !== undefined) changes.push(editorFileTools(files));
  if (terminals !== undefined) changes.push(editorTerminalTools(terminals, terminalLauncher()));
  const opened = await openClientSession({
    cwd: request.cwd,
    env: process.env,
    interactive: true,
    mcpConfigs: mcpConfigOf(request.mcpServers),
    ...(request.resume === undefined ? {} : { resume: request.resume }),
    ...(changes.length === 0 ? {} : { builtins: (tools: AnyTool[]) => changes.reduce((all, change) => change(all), tools) }),
    warn,
  });
  const { session } = opened;
  id = session.id;
  const now = session.currentSettings();
  // The editor named these servers for this session: they start now, and its first prompt finds their tools.
  const handedOver = request.mcpServers.length > 0;
  if (handedOver) opened.assembly.mcp.startAll();
  return {
    id: session.id,
    cwd: now.cwd,
    host: opened.host,
    permissionMode: now.permissionMode,
    model: now.model,
    models: modelInfos(opened.router),
    skills: opened.skills,
    history: () => session.messages(),
    ready: handedOver ? opened.assembly.mcp.settled().catch(() => undefined) : Promise.resolve(),
    denyAlways: opened.denyAlways,
    close: opened.close,
  };
}

/** Serves one editor until it closes stdin. */
export async function acpCommand(): Promise<number> {
  const decoder = new TextDecoder();
  const output = new WritableStream<Uint8Array>({ write: (chunk) => out(decoder.decode(chunk, { stream: true })) });
  const stream = ndJsonStream(output, Bun.stdin.stream());
  await serveAcp(
    {
      version: pkg.version,
      apiKeyHint: 'moat uses the API key in its environment: ANTHROPIC_API_KEY, or the variable of the provider you configured (OPENAI_API_KEY, GEMINI_API_KEY, …)',
      open: openForEditor,
      warn,
    },
    stream,
  );
  return EXIT.ok;
}

export const acpCommands = { acp: acpCommand };
