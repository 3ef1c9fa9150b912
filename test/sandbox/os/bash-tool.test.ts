// The Bash tool under the OS sandbox: deny rules resolved per command, "required" against an approved "off", and the no-network note.
import type { SandboxConfig, SandboxGrant, SandboxPolicy } from '../../../src/contracts/index.ts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxSupport } from '../../../src/sandbox/index.ts';
import { bashTool } from '../../../src/tools/builtin/bash/index.ts';
import { parseRuleList, processSandboxSettings } from '../../../src/tools/index.ts';
import { makeContext } from '../../tools/tool-context.ts';

const supported = sandboxSupport().available;
let base: string;
let repo: string;

beforeAll(() => {
  // Not under the temp folder, which every sandboxed process may write.
  base = realpathSync(mkdtempSync(join('/var/tmp', 'moat-bash-sandbox-')));
  repo = join(base, 'repo');
  mkdirSync(join(repo, 'sub'), { recursive: true });
  mkdirSync(join(repo, '.git'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function config(over: Partial<SandboxConfig> = {}): SandboxConfig {
  return { mode: 'auto', scrubEnv: undefined, scrubEnvExtra: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [], ...over };
}

function settingsFor(deny: string[] = [], over: Partial<SandboxConfig> = {}): SandboxPolicy {
  return processSandboxSettings(config(over), { allow: [], deny: parseRuleList(deny) }, { projectRoot: repo, home: join(base, 'home') });
}

async function bash(command: string, opts: { sandbox?: SandboxGrant; settings?: SandboxPolicy; config?: Partial<SandboxConfig>; cwd?: string } = {}) {
  const settings = opts.settings ?? settingsFor([], opts.config);
  const ctx = makeContext(opts.cwd ?? repo, { roots: [repo], processSandbox: settings, ...(opts.sandbox === undefined ? {} : { sandbox: opts.sandbox }) });
  const r = await bashTool.execute({ command }, ctx);
  return typeof r.content === 'string' ? r.content : JSON.stringify(r.content);
}

describe.skipIf(!supported)('the Bash tool in the sandbox', () => {
  test('deny rules hold for files created after start-up and for ones that do not exist yet, from a sub-folder too', async () => {
    // Built at "start-up", before the secret exists.
    const settings = settingsFor(['Edit(.env)', 'Read(secret.txt)']);
    writeFileSync(join(repo, 'secret.txt'), 'TOP-SECRET\n');
    const read = await bash('cat secret.txt', { settings, sandbox: 'workspace-write' });
    expect(read).not.toContain('TOP-SECRET');
    const wrote = await bash('echo x > .env; echo y > ../.env; echo rc=$?', { settings, sandbox: 'workspace-write', cwd: join(repo, 'sub') });
    expect(wrote).toContain(`write to ${join(repo, '.env')} refused`);
    expect(wrote).toContain(`write to ${join(repo, 'sub', '.env')} refused`);
    expect(existsSync(join(repo, '.env'))).toBe(false);
    expect(existsSync(join(repo, 'sub', '.env'))).toBe(false);
  });

  test('[sandbox] mode = "required" refuses an approved sandbox: "off"', async () => {
    const run = bash('echo ran', { sandbox: 'off', config: { mode: 'required' } });
    await expect(run).rejects.toThrow('[sandbox] mode = "required"');
  });

  test('[sandbox.network] allow_unix_sockets lets workspace-write commands reach a socket; read-only ones still cannot', async () => {
    const path = join(base, 'agent.sock');
    const listener = Bun.listen({ unix: path, socket: { data: () => {} } });
    try {
      const connect = `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('${path}'); print('connected')"`;
      const settings = settingsFor([], { allowUnixSockets: [path] });
      expect(await bash(connect, { settings, sandbox: 'workspace-write' })).toBe('connected');
      expect(await bash(connect, { settings })).toContain('Operation not permitted');
      expect(await bash(connect, { sandbox: 'workspace-write' })).toContain('Operation not permitted');
    } finally {
      listener.stop(true);
    }
  });

  test('a command that fails without network is told it had none, and how to ask', async () => {
    const readOnly = await bash('exec 3<>/dev/tcp/127.0.0.1/9', { config: { allowNetwork: ['pypi.org'] } });
    expect(readOnly).toContain('read-only sandbox, which has no network');
    expect(readOnly).toContain('sandbox: "workspace-write"');
    const none = await bash('exec 3<>/dev/tcp/127.0.0.1/9', { sandbox: 'workspace-write' });
    expect(none).toContain('no host is in [sandbox.network] allow');
    expect(await bash('echo fine', { sandbox: 'workspace-write' })).toBe('fine');
  });

  test("the sandbox launcher's own failure reaches the model and the tool card, not \"(no output)\"", async () => {
    // Started in a folder a Read deny rule masks: bubblewrap itself cannot enter it, before the command runs.
    const hidden = join(repo, 'hidden', 'inside');
    mkdirSync(hidden, { recursive: true });
    const settings = settingsFor(['Read(hidden/**)']);
    const ctx = makeContext(hidden, { roots: [repo], processSandbox: settings });
    const r = await bashTool.execute({ command: 'echo command-ran' }, ctx);
    const content = typeof r.content === 'string' ? r.content : JSON.stringify(r.content);
    expect(content).toContain(`bwrap: Can't chdir to ${hidden}: Permission denied`);
    expect(content).not.toContain('(no output)');
    expect(content).not.toContain('command-ran');
    expect(content).not.toContain('no network');
    expect(r.isError).toBe(true);
    expect(r.display?.type === 'command' ? r.display.output : '').toContain("Can't chdir");
  });
});
