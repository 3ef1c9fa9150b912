/**
 * The adapter the official MCP client conformance suite runs
 * (`conformance client --command "bun client.ts"`): moat's own MCP client —
 * McpManager over Streamable HTTP, with moat's OAuth login for the auth
 * scenarios — connects to the scenario's server (the last argument), lists
 * its tools and calls each one. Exit 0 when it connected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SERVER_SANDBOX, login, McpManager, OAuthStore, sessionAuthProvider } from '../../../src/mcp/index.ts';
import { errorMessage } from '../../../src/util/index.ts';
import { httpServer, toolContext } from '../support.ts';

const url = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const dir = mkdtempSync(join(tmpdir(), 'moat-conformance-'));
const store = new OAuthStore(join(dir, 'mcp-oauth.json'));

/** The "browser": the suite's authorization server approves at once and redirects to moat's loopback callback. */
async function browser(authorize: URL): Promise<void> {
  const res = await fetch(authorize, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (location === null) throw new Error(`no redirect from the authorization endpoint (${res.status})`);
  await fetch(location);
}

/** Arguments for the suite's tools; a tool without required arguments gets none. */
const ARGS: Record<string, Record<string, unknown>> = { add_numbers: { a: 5, b: 3 } };

async function main(): Promise<number> {
  if (scenario.startsWith('auth/')) await login({ store, server: 'conformance', url, open: browser, timeoutMs: 20_000 });
  const m = new McpManager([httpServer('conformance', url)], {
    launch: { cwd: dir, env: {}, sandbox: DEFAULT_SERVER_SANDBOX },
    roots: [dir],
    clientVersion: '0.0.0-conformance',
    authProvider: (s) => (s.transport === 'stdio' || s.transport === 'sdk' ? undefined : sessionAuthProvider(store, s.name, s.url)),
  });
  try {
    m.startAll();
    await m.settled();
    const state = m.status()[0]?.state;
    if (state?.status !== 'connected') {
      process.stderr.write(`not connected: ${JSON.stringify(state)}\n`);
      return 1;
    }
    for (const tool of m.tools().filter((t) => t.name.startsWith('mcp__'))) {
      const name = tool.name.replace(/^mcp__conformance__/, '');
      const call = async () => JSON.stringify((await tool.execute(ARGS[name] ?? {}, toolContext())).content).slice(0, 200);
      try {
        process.stdout.write(`${name}: ${await call()}\n`);
      } catch (e) {
        process.stdout.write(`${name} failed: ${errorMessage(e)}\n`);
        // What the user does when told to: log in again (with the scope the server asked for), then try once more.
        if (!errorMessage(e).includes('moat mcp login')) continue;
        await login({ store, server: 'conformance', url, open: browser, timeoutMs: 20_000 });
        await m.reconnect('conformance');
        const again = m.tools().find((t) => t.name === tool.name);
        if (again !== undefined) process.stdout.write(`${name} after login: ${JSON.stringify((await again.execute(ARGS[name] ?? {}, toolContext())).content).slice(0, 200)}\n`);
      }
    }
    return 0;
  } finally {
    await m.close();
  }
}

let code = 1;
try {
  code = await main();
} catch (e) {
  process.stderr.write(`${errorMessage(e)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
