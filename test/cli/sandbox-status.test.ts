// `moat sandbox status` names the backend of each platform (the host injected into the backend choice): bubblewrap on
// Linux, Seatbelt on macOS, none on Windows, with the one-line reason where there is none.
import { describe, expect, test } from 'bun:test';
import { formatStatus, statusReport } from '../../src/cli/sandbox-command.ts';
import { chooseBackend, SANDBOX_EXEC, type SandboxHost } from '../../src/sandbox/os/backend.ts';
import type { SandboxPolicy as ProcessSandboxSettings } from '../../src/contracts/index.ts';
import { tempDir } from '../support/temp.ts';

const settings: ProcessSandboxSettings = { mode: 'auto', active: true, scrubEnv: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [] };

function host(platform: NodeJS.Platform): SandboxHost {
  return { platform, which: (name) => `/usr/bin/${name}`, exists: (path) => path === SANDBOX_EXEC };
}

function status(platform: NodeJS.Platform, mode: ProcessSandboxSettings['mode'] = 'auto') {
  const cwd = tempDir('moat-status-');
  const report = statusReport({ ...settings, mode }, chooseBackend(host(platform)), [cwd], cwd, { HOME: '/home/u' });
  return { report, head: formatStatus(report).split('\n')[0] };
}

describe('moat sandbox status by platform', () => {
  test('Linux: bubblewrap', () => {
    const { report, head } = status('linux');
    expect(report).toMatchObject({ working: true, backend: 'bubblewrap', bubblewrap: '/usr/bin/bwrap', socat: '/usr/bin/socat' });
    expect(head).toBe('OS sandbox: on (mode auto; bubblewrap /usr/bin/bwrap, socat /usr/bin/socat)');
  });

  test('macOS: Seatbelt', () => {
    const { report, head } = status('darwin');
    expect(report).toMatchObject({ working: true, backend: 'seatbelt', sandboxExec: '/usr/bin/sandbox-exec' });
    expect(head).toBe('OS sandbox: on (mode auto; Seatbelt /usr/bin/sandbox-exec)');
    expect(formatStatus(report)).toContain('processes cannot inspect or signal moat (Seatbelt allows only their own sandbox)');
  });

  test('Windows: none, and why, in one line; required says the same', () => {
    const auto = status('win32');
    expect(auto.report).toMatchObject({ working: false, backend: 'none' });
    expect(auto.head).toBe('OS sandbox: OFF (mode auto): Windows has no OS sandbox for the processes moat starts (bash, hooks, MCP servers) — bash commands ask for approval instead');
    expect(status('win32', 'required').head).toBe('OS sandbox: OFF (mode required): Windows has no OS sandbox for the processes moat starts (bash, hooks, MCP servers)');
  });

  test('off names the backend it would use but is not working', () => {
    expect(status('darwin', 'off').report).toMatchObject({ working: false, backend: 'seatbelt', reason: '[sandbox] mode = "off"' });
  });
});
