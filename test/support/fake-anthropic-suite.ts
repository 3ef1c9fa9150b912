/**
 * The set-up most end-to-end tests share: one scripted Anthropic server per
 * test file, and (when asked) a fresh sandbox — home, config and working
 * folder — per test, removed after it, with the server's request log emptied.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'bun:test';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, type Sandbox } from './run-moat.ts';

/**
 * Registers the hooks; `onServer` receives the server once it listens and
 * `onSandbox` (if given) each test's new sandbox. The callbacks let a test
 * file keep plain `server` and `sb` variables.
 */
export function serveFakeAnthropic(onServer: (server: FakeAnthropic) => void, onSandbox?: (sb: Sandbox) => void): void {
  let server: FakeAnthropic | undefined;
  let sb: Sandbox | undefined;
  beforeAll(async () => {
    if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
    server = await startFakeAnthropic();
    onServer(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  if (onSandbox === undefined) return;
  beforeEach(() => {
    if (server === undefined) throw new Error('the fake Anthropic server did not start');
    sb = makeSandbox(server.url);
    server.requests.length = 0;
    onSandbox(sb);
  });
  afterEach(() => {
    if (sb !== undefined) rmSync(dirname(sb.cwd), { recursive: true, force: true });
    sb = undefined;
  });
}
