/**
 * `@modelcontextprotocol/server-filesystem` inside the OS sandbox: the server
 * itself allows two folders, moat's grant only one — a write to the other is
 * refused by the OS, not by the server's good will.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { McpManager } from '../../src/mcp/index.ts';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import type { AnyTool } from '../../src/tools/index.ts';
import { FILESYSTEM_JS, manager, stdioServer, toolContext } from './support.ts';

const canSandbox = sandboxSupport(process.env).available;
// Outside the system temp folder, which every sandboxed process may write — and not in the checkout,
// which may itself live under /tmp (CI clones there). /var/tmp is not granted (os/prepare-command.test.ts).
const root = realpathSync(mkdtempSync(join('/var/tmp', 'moat-mcp-fs-')));
const granted = join(root, 'granted');
const other = join(root, 'other');
let m: McpManager;

beforeAll(async () => {
  mkdirSync(granted);
  mkdirSync(other);
  m = manager([stdioServer('fs', process.execPath, [FILESYSTEM_JS, granted, other], { sandbox: { enabled: true, allowWrite: [granted], networkAllow: [] } })], root);
  m.startAll();
  await m.settled();
});
afterAll(async () => {
  await m.close();
  rmSync(root, { recursive: true, force: true });
});

const write = (): AnyTool => m.tools().find((t) => t.name === 'mcp__fs__write_file') as AnyTool;

describe.if(canSandbox)('server-filesystem in the sandbox', () => {
  test('a write inside the grant succeeds', async () => {
    expect(m.status()[0]).toMatchObject({ state: { status: 'connected' }, sandboxed: true });
    const r = await write().execute({ path: join(granted, 'ok.txt'), content: 'inside' }, toolContext());
    expect(r.isError).toBeUndefined();
    expect(readFileSync(join(granted, 'ok.txt'), 'utf8')).toBe('inside');
  });

  test('a write outside the grant is refused by the OS although the server allows that folder', async () => {
    const r = await write().execute({ path: join(other, 'escape.txt'), content: 'outside' }, toolContext());
    expect(r.isError).toBe(true);
    expect(String(r.content)).toMatch(/EROFS|EACCES|EPERM|read-only|permission denied/i);
    expect(existsSync(join(other, 'escape.txt'))).toBe(false);
  });
});
