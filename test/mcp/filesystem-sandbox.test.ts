/**
 * `@modelcontextprotocol/server-filesystem` inside the OS sandbox: the server
 * itself allows several folders, moat's grant only one — a write to another
 * (the system temp folder included) is refused by the OS, not by the server's
 * good will, and a folder the user's `[sandbox]` denies cannot be read.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SERVER_SANDBOX, type McpManager } from '../../src/mcp/index.ts';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import type { AnyTool } from '../../src/tools/index.ts';
import { tempDir } from '../support/temp.ts';
import { FILESYSTEM_JS, manager, stdioServer, toolContext } from './support.ts';

const canSandbox = sandboxSupport(process.env).available;
// Outside the system temp folder, which every sandboxed process may write — and not in the checkout,
// which may itself live under /tmp (CI clones there). /var/tmp is not granted (os/prepare-command.test.ts).
const root = realpathSync(mkdtempSync(join('/var/tmp', 'moat-mcp-fs-')));
const granted = join(root, 'granted');
const other = join(root, 'other');
/** Denied by the user's `[sandbox.filesystem] deny_read`: the server lists it as allowed, the OS does not let it read. */
const secret = join(root, 'secret');
/** In the system temp folder, but not the server's own temp folder: no more writable than any other place. */
const systemTemp = tempDir('moat-mcp-fs-systemp-');
let m: McpManager;

beforeAll(async () => {
  mkdirSync(granted);
  mkdirSync(other);
  mkdirSync(secret);
  writeFileSync(join(secret, 'key.txt'), 'hunter2');
  // The server takes the client's roots as its allowed folders: the working folder and, like an --add-dir, the temp one.
  m = manager([stdioServer('fs', process.execPath, [FILESYSTEM_JS, granted, other], { sandbox: { enabled: true, allowWrite: [granted], networkAllow: [] } })], root, {
    roots: [root, systemTemp],
    launch: { sandbox: { ...DEFAULT_SERVER_SANDBOX, denyRead: [secret] } },
  });
  m.startAll();
  await m.settled();
});
afterAll(async () => {
  await m.close();
  rmSync(root, { recursive: true, force: true });
});

const write = (): AnyTool => m.tools().find((t) => t.name === 'mcp__fs__write_file') as AnyTool;
const read = (): AnyTool => m.tools().find((t) => t.name === 'mcp__fs__read_text_file') as AnyTool;
const REFUSED = /EROFS|EACCES|EPERM|read-only|permission denied/i;
/** A denied folder is masked by an empty one nobody may enter: its files are refused or not there at all. */
const HIDDEN = /EACCES|EPERM|ENOENT|permission denied|no such file/i;

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
    expect(String(r.content)).toMatch(REFUSED);
    expect(existsSync(join(other, 'escape.txt'))).toBe(false);
  });

  test('the system temp folder is not writable: only the server\'s own temp folder is', async () => {
    const r = await write().execute({ path: join(systemTemp, 'planted.txt'), content: 'outside' }, toolContext());
    expect(r.isError).toBe(true);
    // The sandbox's /tmp is a private folder of its own: the host's temp folder is not even there, so the server,
    // which keeps only the roots it can see, refuses the path as outside its folders (or the OS refuses the write).
    expect(String(r.content)).toMatch(new RegExp(`${REFUSED.source}|path outside allowed directories`, 'i'));
    expect(existsSync(join(systemTemp, 'planted.txt'))).toBe(false);
  });

  test('a folder the user denies reading cannot be read, although the server allows it', async () => {
    expect((await read().execute({ path: join(granted, 'ok.txt') }, toolContext())).content).toBe('inside');
    const r = await read().execute({ path: join(secret, 'key.txt') }, toolContext());
    expect(r.isError).toBe(true);
    expect(String(r.content)).not.toContain('hunter2');
    expect(String(r.content)).toMatch(HIDDEN);
  });
});
