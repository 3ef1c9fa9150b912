// A command hook and the TUI's `!cmd` run inside the OS sandbox: they write in the project, not outside it.
import type { SandboxPolicy } from '../../../src/contracts/index.ts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { commandHookCallbacks } from '../../../src/agent/index.ts';
import { createTuiClient } from '../../../src/cli/tui-client.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { ModelRouter } from '../../../src/providers/index.ts';
import { assembleSession } from '../../../src/cli/open-session.ts';
import { sandboxSupport } from '../../../src/sandbox/index.ts';
import { processSandboxSettings } from '../../../src/tools/index.ts';
import { testSettings } from '../../support/agent-settings.ts';
import { runShell } from '../../support/tui-ops.ts';

const supported = sandboxSupport().available;
let base: string;
let repo: string;
let outside: string;
let settings: SandboxPolicy;

beforeAll(() => {
  // Not under the temp folder, which every sandboxed process may write.
  base = realpathSync(mkdtempSync(join('/var/tmp', 'moat-hooks-sandbox-')));
  repo = join(base, 'repo');
  outside = join(base, 'outside');
  for (const d of [join(repo, '.git'), outside, join(base, 'home')]) mkdirSync(d, { recursive: true });
  const config = { mode: 'auto' as const, scrubEnv: undefined, scrubEnvExtra: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [] };
  settings = processSandboxSettings(config, { allow: [], deny: [] }, { projectRoot: repo, home: join(base, 'home') });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const escape = (name: string) => `echo pwned > ${join(outside, name)}; echo inside > ${name}; echo done`;

describe.skipIf(!supported)('processes other than Bash calls', () => {
  test('a command hook writes in the project but not outside it', async () => {
    const hooks = commandHookCallbacks({ UserPromptSubmit: [{ hooks: [{ command: escape('hook.txt'), timeoutMs: 10_000, source: 'test' }] }] }, { cwd: repo, projectRoot: repo, roots: [repo], processSandbox: settings });
    const callback = hooks?.UserPromptSubmit?.[0]?.callbacks[0];
    if (callback === undefined) throw new Error('no hook callback');
    await callback({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }, new AbortController().signal);
    expect(readFileSync(join(repo, 'hook.txt'), 'utf8')).toBe('inside\n');
    expect(existsSync(join(outside, 'hook.txt'))).toBe(false);
  });

  test("the TUI's !cmd writes in the project but not outside it", async () => {
    const env = { HOME: join(base, 'home'), XDG_CONFIG_HOME: join(base, 'home', '.config') };
    const loaded = loadConfig({ cwd: repo, env });
    const sessionSettings = testSettings(repo, { processSandbox: settings, home: env.HOME });
    const router = new ModelRouter({ env: { ANTHROPIC_API_KEY: 'k' } });
    const assembly = await assembleSession({ loaded, settings: sessionSettings, router, env, skills: [], warn: () => {}, interactive: true, answers: { remember: () => {} } });
    const c = createTuiClient({ assembly, router, settings: sessionSettings, loaded, logFile: join(base, 'tui.log'), skills: [] });
    try {
      // Asked as a Bash call asking for workspace-write is; approved here as the TUI's dialog would.
      const r = await runShell(c, escape('shell.txt'), new AbortController().signal, (e) => {
        // Answered once the question is open (the event comes just before it is), as a person would.
        if (e.type === 'permission_request') setTimeout(() => c.session.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'allow' } }), 0);
      });
      expect(r.output).toContain('done');
      expect(readFileSync(join(repo, 'shell.txt'), 'utf8')).toBe('inside\n');
      expect(existsSync(join(outside, 'shell.txt'))).toBe(false);
    } finally {
      await c.lifecycle.shutdown();
    }
  });
});
