/**
 * The container image (scripts/image.ts) under podman: its configuration and
 * labels, `moat --version`, a `-p` read-then-answer against the scripted model
 * server on the host's loopback, and the OS sandbox inside the container —
 * on with `--security-opt unmask=/proc/*`, off (and saying why) without it.
 *
 * The image is built once per run when dist/moat-image.oci.tar is missing or
 * older than dist/moat (the build's time is printed). Where podman cannot run
 * a container, or the image cannot be built, every test here is skipped with
 * one printed line saying why.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN } from '../support/run-moat.ts';
import { tempDir } from '../support/temp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const ARCHIVE = join(ROOT, 'dist', 'moat-image.oci.tar');
// crun fails on these machines' hybrid cgroup layout; Debian's runc with cgroupfs starts containers.
const PODMAN = ['podman', '--runtime', 'runc', '--cgroup-manager=cgroupfs'];
const RUN = ['run', '--rm', '--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'];
/** What bubblewrap needs inside the container: podman masks parts of /proc, and the kernel then refuses a new proc mount. */
const SANDBOX_OPTS = ['--security-opt', 'unmask=/proc/*'];

function sh(argv: string[], timeoutMs = 120_000): { code: number; out: string; err: string } {
  const r = Bun.spawnSync(argv, { stdout: 'pipe', stderr: 'pipe', timeout: timeoutMs });
  return { code: r.exitCode ?? -1, out: r.stdout.toString(), err: r.stderr.toString() };
}

/** Why the image tests cannot run here, or undefined when they can. */
function unavailable(): string | undefined {
  if (process.platform !== 'linux') return 'podman tests run on Linux only';
  if (Bun.which('podman') === null) return 'podman is not installed (apt-get install podman runc)';
  const info = sh([...PODMAN, 'info', '--format', '{{.Host.OCIRuntime.Name}}']);
  if (info.code !== 0) return `podman cannot run here: ${info.err.trim().split('\n').at(-1) ?? ''}`;
  const fresh = existsSync(ARCHIVE) && statSync(ARCHIVE).mtimeMs >= statSync(MOAT_BIN).mtimeMs;
  if (!fresh && (Bun.which('mmdebstrap') === null || Bun.which('buildah') === null)) return 'no image and no mmdebstrap/buildah to build one (apt-get install mmdebstrap buildah)';
  return undefined;
}

const reason = unavailable();
if (reason !== undefined) console.log(`skipped: container image tests: ${reason}`);

let image = '';
let model: FakeAnthropic;

beforeAll(async () => {
  if (reason !== undefined) return;
  const fresh = existsSync(ARCHIVE) && statSync(ARCHIVE).mtimeMs >= statSync(MOAT_BIN).mtimeMs;
  if (!fresh) {
    const started = performance.now();
    const build = sh(['bun', 'run', 'image'], 1_500_000);
    if (build.code !== 0) throw new Error(`bun run image failed: ${build.err.split('\n').slice(-5).join('\n')}`);
    console.log(`image: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
  const load = sh([...PODMAN, 'load', '-q', '-i', ARCHIVE], 300_000);
  if (load.code !== 0) throw new Error(`podman load: ${load.err}`);
  const name = /Loaded image(?:\(s\))?: (\S+)/.exec(load.out)?.[1] ?? '';
  image = sh([...PODMAN, 'image', 'inspect', '--format', '{{.Id}}', name]).out.trim();
  if (image === '') throw new Error(`podman load printed no image: ${load.out}`);
  model = await startFakeAnthropic();
}, 1_800_000);

afterAll(async () => {
  await model?.close();
});

/** A container of the image; the fake model server is on the host's loopback (--network host). */
async function inContainer(args: string[], opts: { podman?: string[]; workspace?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = [
    ...PODMAN,
    ...RUN,
    '--network',
    'host',
    '-e',
    `ANTHROPIC_BASE_URL=${model.url}`,
    '-e',
    'ANTHROPIC_API_KEY=fake-key',
    ...(opts.workspace === undefined ? [] : ['-v', `${opts.workspace}:/workspace`]),
    ...(opts.podman ?? []),
    image,
    ...args,
  ];
  const proc = Bun.spawn(argv, { stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** A folder the container's user (uid 1000) may write in. */
function workspace(): string {
  const dir = tempDir('moat-image-ws-');
  Bun.spawnSync(['chmod', '0777', dir]);
  return dir;
}

function toolResults(from: number): string {
  return JSON.stringify(model.requests.slice(from).map((r) => r.body));
}

describe.skipIf(reason !== undefined)('the moat image under podman', () => {
  test('configuration: non-root user, /workspace, moat as the entrypoint, version and source labels', () => {
    const config = JSON.parse(sh([...PODMAN, 'image', 'inspect', '--format', '{{json .Config}}', image]).out) as { User: string; WorkingDir: string; Entrypoint: string[]; Labels: Record<string, string> };
    expect({ user: config.User, dir: config.WorkingDir, entrypoint: config.Entrypoint }).toEqual({ user: '1000:1000', dir: '/workspace', entrypoint: ['/usr/local/bin/moat'] });
    expect(config.Labels['org.opencontainers.image.version']).toBe('0.1.0');
    expect(config.Labels['org.opencontainers.image.source']).toMatch(/^https:\/\//);
    expect(config.Labels['org.opencontainers.image.revision']).toMatch(/^[0-9a-f]{40}$/);
  });

  test('moat --version', async () => {
    const r = await inContainer(['--version']);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: '0.1.0 (moat)\n' });
  });

  test('-p reads a file in the mounted workspace and answers, against the model server on the host', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'notes.txt'), 'alpha\nbeta\n');
    const from = model.requests.length;
    model.script(reply().toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('Two lines.'));
    const r = await inContainer(['-p', 'How many lines in notes.txt?'], { workspace: ws });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'Two lines.\n' });
    // The numbered lines went back to the model (compared as booleans: a request body is long).
    const sent = toolResults(from);
    expect([sent.includes('1\\talpha'), sent.includes('2\\tbeta')]).toEqual([true, true]);
  });

  test('with --security-opt unmask=/proc/*, the OS sandbox is on and a Bash call runs inside it', async () => {
    const status = await inContainer(['sandbox', 'status'], { podman: SANDBOX_OPTS });
    expect(status.stdout.split('\n')[0]).toBe('OS sandbox: on (mode auto; bubblewrap /usr/bin/bwrap, socat /usr/bin/socat)');
    const ws = workspace();
    const from = model.requests.length;
    // moat's own data folder is unreadable inside the sandbox; the workspace is writable.
    model.script(reply().toolUse('Bash', { command: 'echo made > out.txt && cat out.txt && ls /home/moat/.local/share/moat' }).stop('tool_use'), reply().text('Ran it.'));
    const r = await inContainer(['-p', 'run it', '--allowedTools', 'Bash', '--permission-mode', 'acceptEdits'], { podman: SANDBOX_OPTS, workspace: ws });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'Ran it.\n' });
    const sent = toolResults(from);
    expect(sent).toContain('made');
    expect(sent).toMatch(/ls: cannot (access|open directory) '\/home\/moat\/.local\/share\/moat'/);
  });

  test('without it, mode auto says the sandbox is off and why, and -p denies Bash instead of running it unsandboxed', async () => {
    const status = await inContainer(['sandbox', 'status']);
    expect(status.stdout.split('\n')[0]).toStartWith('OS sandbox: OFF (mode auto): bubblewrap cannot create namespaces here (bwrap: ');
    const ws = workspace();
    const from = model.requests.length;
    model.script(reply().toolUse('Bash', { command: 'echo made > out.txt' }).stop('tool_use'), reply().text('Could not.'));
    const r = await inContainer(['-p', 'run it', '--allowedTools', 'Bash'], { workspace: ws });
    expect(r.code).toBe(0);
    expect(existsSync(join(ws, 'out.txt'))).toBe(false);
    expect(toolResults(from)).toContain('is_error":true');
  });
});
