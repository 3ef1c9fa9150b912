/**
 * MCP costs, each against a floor measured in the same run:
 *
 * 1. Start-up: `moat -p` from spawn to the first model request reaching a
 *    local server, with three stdio servers configured (server-everything,
 *    three times) against the same run with none (target: no later; servers
 *    connect in the background). The servers' tool lists are cached by a
 *    first run, so later runs do not wait for them.
 * 1b. The same with one stdio server and its tool list cached: its tools are
 *    in the first request (checked), at most 20 ms later than with none.
 * 2. A tool call: moat's MCP tool (McpManager, the server inside the OS
 *    sandbox) against a bare SDK client calling the same tool of an
 *    unsandboxed server over stdio — the server's own time (target: under
 *    5 ms added, median).
 *
 * The home folder holds Claude Code's user files as a heavy user's look:
 * `~/.claude.json` of CLAUDE_JSON_KB (default 3000) kilobytes, its projects'
 * history, and a small `~/.claude/settings.json` (CLAUDE_JSON_KB=0: neither).
 * ONLY=1b runs part 1b alone.
 *
 * Run: bun run build && bun run scripts/bench/mcp.ts   (RUNS=10 CALLS=200 by default)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_SERVER_SANDBOX, McpManager } from '../../src/mcp/index.ts';
import { everything, toolContext } from '../../test/mcp/support.ts';
import { framesFor, reply } from '../../test/support/fake-anthropic.ts';

const BIN = process.env.BIN ?? resolve(import.meta.dir, '../../dist/moat');
const RUNS = Number(process.env.RUNS ?? 10);
const CALLS = Number(process.env.CALLS ?? 200);
const CLAUDE_JSON_KB = Number(process.env.CLAUDE_JSON_KB ?? 3000);
const ONLY = process.env.ONLY;
const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** Claude Code's user files of a heavy user: many projects, each with a history of long prompts, none of them this folder. */
function writeClaudeFiles(home: string): void {
  if (CLAUDE_JSON_KB <= 0) return;
  const projects: Record<string, unknown> = {};
  const prompt = 'Refactor the request handler so that retries back off and the log says why. '.repeat(10);
  for (let i = 0; JSON.stringify(projects).length < CLAUDE_JSON_KB * 1024; i++) {
    projects[`/home/user/src/project-${i}`] = {
      allowedTools: [],
      history: Array.from({ length: 20 }, (_, j) => ({ display: `${j}: ${prompt}`, pastedContents: {} })),
      mcpServers: {},
      hasTrustDialogAccepted: true,
      lastCost: 1.25,
    };
  }
  writeFileSync(join(home, '.claude.json'), JSON.stringify({ numStartups: 412, theme: 'dark', projects }, null, 2));
  mkdirSync(join(home, '.claude'));
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(git status)', 'Read'] }, model: 'claude-sonnet-4-5' }, null, 2));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

const answer = new TextEncoder().encode(
  framesFor(reply().text('ok').build(), 'claude-sonnet-4-5', 1)
    .map((f) => ('event' in f ? `event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n` : ''))
    .join(''),
);

/**
 * Milliseconds from spawning `moat -p` to its first model request, per run, for each set of flags; runs alternate so
 * drift falls on all alike. `warmUp`: run once first (not timed), in the same HOME: it fills the tool-list cache.
 * `seen`: the tool names of each first request, per variant.
 */
async function firstRequest(variants: string[][], warmUp?: string[], seen: string[][] = []): Promise<number[][]> {
  let arrived: ((t: number) => void) | undefined;
  let body = '';
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      arrived?.(performance.now());
      body = await req.text();
      return new Response(answer, { headers: { 'content-type': 'text/event-stream' } });
    },
  });
  const home = mkdtempSync(join(tmpdir(), 'moat-bench-mcp-'));
  writeClaudeFiles(home);
  const times = variants.map((): number[] => []);
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache'), ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.port}` };
  try {
    if (warmUp !== undefined) await Bun.spawn([BIN, '-p', 'hi', ...warmUp], { cwd: home, env, stdout: 'ignore', stderr: 'ignore' }).exited;
    for (let i = 0; i < RUNS; i++) {
      for (const [v, extra] of variants.entries()) {
        const when = new Promise<number>((res) => (arrived = res));
        const start = performance.now();
        const child = Bun.spawn([BIN, '-p', 'hi', ...extra], { cwd: home, env, stdout: 'ignore', stderr: 'ignore' });
        times[v]?.push((await when) - start);
        await child.exited;
        const tools = (JSON.parse(body) as { tools?: { name: string; description?: string }[] }).tools ?? [];
        if (i === 0) seen[v] = tools.map((t) => `${t.name} ${t.description ?? ''}`);
      }
    }
  } finally {
    await server.stop(true);
    rmSync(home, { recursive: true, force: true });
  }
  return times;
}

async function toolCalls(): Promise<{ moat: number[]; bare: number[]; sandboxed: boolean }> {
  const m = new McpManager([everything()], { launch: { cwd: process.cwd(), env: process.env, sandbox: DEFAULT_SERVER_SANDBOX }, roots: [process.cwd()], clientVersion: 'bench' });
  const bare = new Client({ name: 'bench', version: '0' });
  await bare.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_JS, 'stdio'], stderr: 'ignore' }));
  try {
    m.startAll();
    await m.settled();
    const echo = m.tools().find((t) => t.name === 'mcp__everything__echo');
    if (echo === undefined) throw new Error(`server-everything did not connect: ${JSON.stringify(m.status()[0]?.state)}`);
    const moat: number[] = [];
    const plain: number[] = [];
    // Interleaved, so load on the machine falls on both alike; the first 20 warm up.
    for (let i = 0; i < CALLS + 20; i++) {
      let t = performance.now();
      await echo.execute({ message: `m${i}` }, toolContext());
      const a = performance.now() - t;
      t = performance.now();
      await bare.callTool({ name: 'echo', arguments: { message: `m${i}` } });
      const b = performance.now() - t;
      if (i >= 20) {
        moat.push(a);
        plain.push(b);
      }
    }
    return { moat, bare: plain, sandboxed: m.status()[0]?.sandboxed === true };
  } finally {
    await bare.close();
    await m.close();
  }
}

const config = JSON.stringify({
  mcpServers: Object.fromEntries(['a', 'b', 'c'].map((n) => [n, { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] }])),
});
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`load average before: ${load()}; ~/.claude.json: ${CLAUDE_JSON_KB > 0 ? `${CLAUDE_JSON_KB} KB` : 'none'}`);
if (ONLY === undefined) {
  const [none = [], three = []] = await firstRequest([[], ['--mcp-config', config]], ['--mcp-config', config]);
  console.log(`first model request after spawn, median of ${RUNS}: no servers ${median(none).toFixed(1)} ms (floor), three stdio servers ${median(three).toFixed(1)} ms = ${(median(three) / median(none)).toFixed(2)}x (target: no later)`);

}

const one = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } });
const seen: string[][] = [];
const [floor = [], warm = []] = await firstRequest([[], ['--mcp-config', one]], ['--mcp-config', one], seen);
const named = (seen[1] ?? []).some((t) => t.includes('mcp__everything__echo'));
console.log(
  `first model request, one stdio server with its tool list cached, median of ${RUNS}: no server ${median(floor).toFixed(1)} ms (floor), with it ${median(warm).toFixed(1)} ms = +${(median(warm) - median(floor)).toFixed(1)} ms; its tools in the first request: ${named ? 'yes' : 'NO'} (target: at most +20 ms, tools named)`,
);

if (ONLY !== undefined) {
  console.log(`load average after: ${load()}`);
  process.exit(0);
}
const calls = await toolCalls();
const added = median(calls.moat) - median(calls.bare);
console.log(
  `echo tool call, median of ${CALLS}: bare SDK client ${median(calls.bare).toFixed(2)} ms (floor), moat ${median(calls.moat).toFixed(2)} ms${calls.sandboxed ? ' (server in the OS sandbox)' : ''} = +${added.toFixed(2)} ms, ${(median(calls.moat) / median(calls.bare)).toFixed(2)}x (target: under +5 ms)`,
);
console.log(`load average after: ${load()}`);
