/** `moat mcp serve`: the composition root of moat as an MCP server (stdio, or HTTP on a loopback port). */
import { resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { serveHttp, serveStdio, type OpenTask, type TaskSession } from '../mcp-serve/index.ts';
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

export async function mcpServe(opts: { port?: string; cwd?: string }): Promise<number> {
  const port = portOf(opts.port);
  const deps = { version: pkg.version, cwd: resolve(opts.cwd ?? process.cwd()), open: openTask };
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
