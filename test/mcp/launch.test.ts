/**
 * How a stdio server starts: the environment it gets (the inherited one
 * scrubbed, its own `env` as configured), where it may write, and the user's
 * `[sandbox]` mode (`required` starts nothing unsandboxed).
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_SERVER_SANDBOX, type McpManager, type McpServerConfig, type ServerSandboxSettings } from '../../src/mcp/index.ts';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import type { AnyTool } from '../../src/tools/index.ts';
import { everything, manager, stdioServer, toolContext } from './support.ts';

const FIXTURE = resolve(import.meta.dir, 'fixtures/hostile-server.ts');
const canSandbox = sandboxSupport(process.env).available;

async function started(server: McpServerConfig, launch: { env?: Record<string, string | undefined>; sandbox?: ServerSandboxSettings } = {}): Promise<McpManager> {
  const m = manager([server], process.cwd(), { launch });
  m.startAll();
  await m.settled();
  return m;
}

function tool(m: McpManager, name: string): AnyTool {
  const t = m.tools().find((x) => x.name === name);
  if (t === undefined) throw new Error(`no ${name}: ${JSON.stringify(m.status()[0]?.state)}`);
  return t;
}

async function serverEnv(m: McpManager): Promise<Record<string, string>> {
  return JSON.parse(String((await tool(m, 'mcp__everything__get-env').execute({}, toolContext())).content)) as Record<string, string>;
}

const inherited = { ...process.env, GITHUB_PERSONAL_ACCESS_TOKEN: 'inherited-token', SOME_API_KEY: 'inherited-key', MOAT_PLAIN_VAR: 'kept' };
const ownEnv = { GITHUB_PERSONAL_ACCESS_TOKEN: 'from-config', DB_SECRET: 'given' };

describe('the environment of a stdio server', () => {
  for (const enabled of [true, false]) {
    test(`${enabled ? 'sandboxed' : 'sandbox = false'}: its own env arrives, credentials it only inherits do not`, async () => {
      const m = await started(everything({ env: ownEnv, sandbox: { enabled, allowWrite: [], networkAllow: [] } }), { env: inherited });
      try {
        const seen = await serverEnv(m);
        // *_TOKEN and *_SECRET are scrubbed from what it inherits, not from what its config gives it.
        expect(seen.GITHUB_PERSONAL_ACCESS_TOKEN).toBe('from-config');
        expect(seen.DB_SECRET).toBe('given');
        expect(seen.SOME_API_KEY).toBeUndefined();
        expect(seen.MOAT_PLAIN_VAR).toBe('kept');
        // Sandboxed, its own temp folder is what it sees at the system temp path.
        expect(seen.TMPDIR).toMatch(enabled ? /^\/tmp$/ : /\/moat-mcp-\d+-everything-[^/]+$/);
      } finally {
        await m.close();
      }
    });
  }

  test("the user's scrub_env applies to what it inherits", async () => {
    const m = await started(everything({ env: { MOAT_PLAIN_OWN: 'given' } }), { env: { ...inherited, MOAT_PLAIN_OWN: 'inherited' }, sandbox: { ...DEFAULT_SERVER_SANDBOX, scrubEnv: ['MOAT_PLAIN_*'] } });
    try {
      const seen = await serverEnv(m);
      expect(seen.MOAT_PLAIN_VAR).toBeUndefined();
      expect(seen.MOAT_PLAIN_OWN).toBe('given');
      // Replacing the patterns does not hand over what the defaults would have removed: *_TOKEN is the user's choice now.
      expect(seen.GITHUB_PERSONAL_ACCESS_TOKEN).toBe('inherited-token');
    } finally {
      await m.close();
    }
  });
});

describe.if(canSandbox)('where a stdio server may write', () => {
  test('its own temp folder (TMPDIR), bound at the system temp path: nothing reaches the host temp folder', async () => {
    const m = await started(stdioServer('tmp', process.execPath, [FIXTURE, 'record']));
    try {
      const where = JSON.parse(String((await tool(m, 'mcp__tmp__tmp').execute({}, toolContext())).content)) as { own: string; system: string };
      expect(where).toEqual({ own: 'written', system: 'written' });
      expect(readdirSync('/tmp').filter((n) => n.startsWith('moat-mcp-probe-'))).toEqual([]);
    } finally {
      await m.close();
    }
  });
});

describe('[sandbox] mode', () => {
  // No bubblewrap on this PATH: the sandbox cannot run (the server itself is started by absolute path).
  const noBwrap = { ...process.env, PATH: '/nonexistent-moat-bin' };
  const fixture = (over: Partial<Parameters<typeof stdioServer>[3]> = {}) => stdioServer('srv', process.execPath, [FIXTURE, 'record'], over);

  test('required: a server that cannot be sandboxed does not start, and says why', async () => {
    const m = await started(fixture(), { env: noBwrap, sandbox: { ...DEFAULT_SERVER_SANDBOX, mode: 'required' } });
    try {
      expect(m.status()[0]?.state).toEqual({ status: 'failed', error: expect.stringContaining('the OS sandbox is required ([sandbox] mode = "required") but cannot run: bubblewrap (bwrap) is not on PATH') });
      expect(m.tools()).toEqual([]);
    } finally {
      await m.close();
    }
  });

  test('required: sandbox = false does not start it either', async () => {
    const m = await started(fixture({ sandbox: { enabled: false, allowWrite: [], networkAllow: [] } }), { sandbox: { ...DEFAULT_SERVER_SANDBOX, mode: 'required' } });
    try {
      expect(m.status()[0]?.state).toEqual({ status: 'failed', error: 'sandbox = false for this server, but [sandbox] mode = "required" starts nothing outside the OS sandbox' });
    } finally {
      await m.close();
    }
  });

  test('auto without bubblewrap: it starts unsandboxed, and the status says why; off: unsandboxed by the user', async () => {
    const auto = await started(fixture(), { env: noBwrap });
    const off = await started(fixture(), { sandbox: { ...DEFAULT_SERVER_SANDBOX, mode: 'off' } });
    try {
      expect(auto.status()[0]).toMatchObject({ state: { status: 'connected' }, sandboxed: false, unsandboxedReason: expect.stringContaining('bubblewrap (bwrap) is not on PATH') });
      expect(off.status()[0]).toMatchObject({ state: { status: 'connected' }, sandboxed: false, unsandboxedReason: '[sandbox] mode = "off"' });
    } finally {
      await auto.close();
      await off.close();
    }
  });
});
