// The linux-arm64 executable from `bun run release`, run under qemu-user (Debian's qemu-user and libc6-arm64-cross,
// which scripts/test.sh installs): --version, a -p read-then-answer against the model server, and a bundled tool.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { lastToolResult, readThenAnswer, RELEASE_BUILD_DIR, releaseBuild } from '../support/release-build.ts';
import { makeSandbox, runMoat } from '../support/run-moat.ts';

const QEMU = Bun.which('qemu-aarch64');
const ARM64 = join(RELEASE_BUILD_DIR, 'linux-arm64', 'moat');
/** The emulator with the arm64 C library's root (libc6-arm64-cross), then the executable. */
const emulated = (): string[] => [QEMU ?? 'qemu-aarch64', '-L', '/usr/aarch64-linux-gnu', ARM64];
let server: FakeAnthropic;

beforeAll(async () => {
  if (QEMU === undefined) throw new Error('qemu-aarch64 is missing: apt-get install qemu-user libc6-arm64-cross (scripts/test.sh does)');
  await releaseBuild();
  server = await startFakeAnthropic();
}, 1_800_000);
afterAll(() => server?.close());

describe('linux-arm64 under qemu', () => {
  test('--version', () => {
    const r = Bun.spawnSync([...emulated(), '--version']);
    expect({ code: r.exitCode, stdout: r.stdout.toString() }).toEqual({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+ \(moat\)\n$/) as unknown as string });
  }, 120_000);

  test('-p read-then-answer against the model server', async () => {
    server.requests.length = 0;
    const r = await readThenAnswer(server, emulated());
    expect(r).toEqual({ code: 0, stdout: 'It has two lines.\n', stderr: '' });
    expect(lastToolResult(server, 1)).toContain('beta');
  }, 300_000);

  test('a bundled WebAssembly tool runs (calculate)', async () => {
    const sb = makeSandbox();
    // Emulated, the tool's JIT-compiled WebAssembly runs many times slower than the 5 s deadline is meant for: the
    // user's config gives it two minutes, as it would on a slow machine.
    mkdirSync(join(sb.home, '.config', 'moat'), { recursive: true });
    writeFileSync(join(sb.home, '.config', 'moat', 'config.toml'), '[sandbox]\nmax_timeout_ms = 120000\n\n[tools.calculate]\ntimeout_ms = 120000\n');
    const [bin = '', ...args] = emulated();
    const r = await runMoat([...args, 'tool', 'exec', 'calculate', '{"expression": "2^10"}'], { cwd: sb.cwd, env: sb.env, bin });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '1024\n' });
    expect(r.stderr).toMatch(/^exit 0 · fuel used [\d,]+ · peak memory/);
  }, 300_000);
});
