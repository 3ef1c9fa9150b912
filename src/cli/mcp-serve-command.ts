/** `moat mcp serve`: the composition root of moat as an MCP server (stdio, or HTTP on a loopback port). */
import { resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { serveHttp, serveStdio, toolRunner, type OpenTask, type ServeDeps, type TaskSession } from '../mcp-serve/index.ts';
import { PERMISSION_MODES, type PermissionMode } from '../contracts/index.ts';
import { openToolHost } from './mcp-serve-tools.ts';
import { MoatError } from '../util/index.ts';
import { openClientSession } from './client-session.ts';
import { EXIT } from './exit-codes.ts';
import { err } from './write-out.ts';

const warn = (line: string) => err(`moat: ${line}\n`);

/** One call's session: nobody can be asked, so what would be asked is denied unless the call's mode or rules allow it. */
async function openTask(o: OpenTask): Promise<TaskSession> {
  const opened = await openClientSession({ ...o, env: process.env, interactive: false, warn });
  return {
    id: opened.session.id,
    host: opened.host,
    ...(opened.finishWorktree === undefined ? {} : { finishWorktree: opened.finishWorktree }),
    close: opened.close,
  };
}

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new MoatError('usage', `--port ${value}: a port number (0-65535; 0 picks a free one)`);
  return port;
}

function modeOf(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined;
  const mode = PERMISSION_MODES.find((m) => m === value);
  if (mode === undefined) throw new MoatError('usage', `--permission-mode ${value}: one of ${PERMISSION_MODES.join(', ')}`);
  return mode;
}

export interface McpServeOptions {
  port?: string;
  cwd?: string;
  /** Offer moat's own tools too, each call decided by the mode and rules below. */
  tools?: boolean;
  permissionMode?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
}

export async function mcpServe(opts: McpServeOptions): Promise<number> {
  const port = portOf(opts.port);
  const permissionMode = modeOf(opts.permissionMode);
  if (opts.tools !== true && (permissionMode !== undefined || opts.allowedTools !== undefined || opts.disallowedTools !== undefined)) {
    throw new MoatError('usage', '--permission-mode, --allowed-tools and --disallowed-tools apply to --tools (a moat call passes its own)');
  }
  const cwd = resolve(opts.cwd ?? process.cwd());
  const toolHost =
    opts.tools === true
      ? await openToolHost({
          cwd,
          ...(permissionMode === undefined ? {} : { permissionMode }),
          ...(opts.allowedTools === undefined ? {} : { allowedTools: opts.allowedTools }),
          ...(opts.disallowedTools === undefined ? {} : { disallowedTools: opts.disallowedTools }),
          warn,
        })
      : undefined;
  const deps: ServeDeps = {
    version: pkg.version,
    cwd,
    open: openTask,
    ...(toolHost === undefined ? {} : { builtins: { tools: toolHost.tools, run: toolRunner(toolHost) } }),
  };
  try {
    return await serve(deps, port);
  } finally {
    await toolHost?.close();
  }
}

async function serve(deps: ServeDeps, port: number | undefined): Promise<number> {
  if (port === undefined) {
    await serveStdio(deps);
    return EXIT.ok;
  }
  const serving = serveHttp(deps, port);
  // The one line a script waits for: where to connect.
  err(`moat: MCP server on ${serving.url}\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await serving.stop();
  return EXIT.ok;
}

export const mcpServeCommands = { mcpServe };
