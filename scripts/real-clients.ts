/**
 * Checks the fake model server's wire formats against real clients nobody
 * here wrote: Codex (OpenAI Responses), OpenCode (Chat Completions, through
 * the AI SDK's openai-compatible provider) and Gemini CLI (Gemini
 * streamGenerateContent). Each runs a read-then-answer against the fake: the
 * first reply calls the client's own file-reading tool (with reasoning, in
 * fragments), the client runs it and sends the result back in its own
 * format, the second reply is the answer. Passing means the client parsed
 * every byte of our stream as the real API's.
 *
 * Needs the network to the npm registry (the clients are installed into a
 * temp folder, never as project dependencies); not part of CI.
 *
 *   bun run scripts/real-clients.ts                 # installs into a temp folder
 *   REAL_CLIENTS_DIR=/tmp/clients bun run scripts/real-clients.ts   # reuse an install
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../test/support/fake-anthropic.ts';
import { fakeCallSignature } from '../test/support/fake-gemini-frames.ts';

const PACKAGES = ['@openai/codex', 'opencode-ai', '@google/gemini-cli'];
const ANSWER = 'notes.txt has 2 lines: alpha and beta.';

interface Client {
  name: string;
  format: string;
  /** The first reply: the client's own read tool on notes.txt. */
  firstReply(cwd: string): ReturnType<typeof reply>;
  /** Writes the client's config under `home`/`cwd`; returns argv and extra env. */
  setup(o: { bin: string; home: string; cwd: string; url: string }): { argv: string[]; env: Record<string, string> };
  /** Something the second request must carry beyond the file's content (reasoning sent back…). */
  extraCheck?(secondBody: string): string | undefined;
}

const CLIENTS: Client[] = [
  {
    name: 'codex',
    format: 'OpenAI Responses (POST /v1/responses)',
    firstReply: () =>
      reply()
        .thinking('The user wants a line count; read the file.', 'gAAAAfake-encrypted-reasoning')
        .text('Let me look.')
        .toolUse('exec_command', { cmd: 'cat notes.txt' }, { fragments: 5 }),
    setup: ({ bin, url }) => ({
      argv: [bin, 'exec', '--skip-git-repo-check', '-s', 'danger-full-access', '-m', 'gpt-5.1', '-c', 'model_provider="fake"', '-c', `model_providers.fake={name="fake",base_url="${url}/v1",wire_api="responses",env_key="FAKE_KEY"}`, 'How many lines are in notes.txt?'],
      env: { FAKE_KEY: 'sk-fake' },
    }),
    extraCheck: (body) => (body.includes('gAAAAfake-encrypted-reasoning') ? undefined : 'the reasoning item was not sent back'),
  },
  {
    name: 'opencode',
    format: 'Chat Completions (POST /v1/chat/completions)',
    firstReply: (cwd) => reply().thinking('Read it first.', 'unused').text('Reading.').toolUse('read', { filePath: join(cwd, 'notes.txt') }, { fragments: 6 }),
    setup: ({ bin, cwd, url }) => {
      writeFileSync(
        join(cwd, 'opencode.json'),
        JSON.stringify({
          $schema: 'https://opencode.ai/config.json',
          provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${url}/v1`, apiKey: 'sk-fake' }, models: { 'fake-model': { name: 'Fake', tool_call: true } } } },
          model: 'fake/fake-model',
        }),
      );
      return { argv: [bin, 'run', '--model', 'fake/fake-model', 'How many lines are in notes.txt?'], env: {} };
    },
  },
  {
    name: 'gemini',
    format: 'Gemini (POST /v1beta/models/…:streamGenerateContent?alt=sse)',
    firstReply: () => reply().thinking('I will read the file.', 'thought-sig-1').toolUse('read_file', { file_path: 'notes.txt' }),
    setup: ({ bin, home, url }) => {
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } } }));
      return {
        argv: [bin, '-p', 'How many lines are in notes.txt?', '-m', 'gemini-2.5-flash', '--yolo'],
        env: { GEMINI_API_KEY: 'g-fake', GOOGLE_GEMINI_BASE_URL: url },
      };
    },
    extraCheck: (body) => (body.includes(fakeCallSignature('read_file', 0)) ? undefined : "the function call's thought signature was not sent back"),
  },
];

async function install(dir: string): Promise<void> {
  console.log(`installing ${PACKAGES.join(', ')} into ${dir} …`);
  const proc = Bun.spawn(['npm', 'install', '--no-audit', '--no-fund', '--prefix', dir, ...PACKAGES], { stdout: 'ignore', stderr: 'pipe' });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`npm install failed: ${err.slice(-500)}`);
}

async function runClient(client: Client, binDir: string): Promise<{ ok: boolean; lines: string[] }> {
  const root = mkdtempSync(join(tmpdir(), `moat-real-${client.name}-`));
  const server: FakeAnthropic = await startFakeAnthropic();
  const lines: string[] = [];
  try {
    const home = join(root, 'home');
    const cwd = join(root, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'notes.txt'), 'alpha\nbeta\n');
    // Clients may make side requests (titles, summaries) first: route by what is in the conversation.
    // The file's two lines, however the client frames its tool output (OpenCode numbers the lines).
    const withToolResult = (r: { body: unknown }) => /alpha[^"]*\\n[^"]*beta/.test(JSON.stringify(r.body));
    server.route(withToolResult, ...Array.from({ length: 4 }, () => reply().text(ANSWER)));
    // The conversation itself offers tools; a side request (OpenCode's title) does not.
    const offersTools = (r: { body: unknown }) => Array.isArray((r.body as { tools?: unknown }).tools);
    server.route((r) => !withToolResult(r) && offersTools(r) && JSON.stringify(r.body).includes('How many lines'), client.firstReply(cwd));
    server.script(...Array.from({ length: 6 }, () => reply().text('ok')));
    const { argv, env } = client.setup({ bin: join(binDir, client.name), home, cwd, url: server.url });
    const t0 = performance.now();
    const proc = Bun.spawn(argv, { cwd, env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1', ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
    const timer = setTimeout(() => proc.kill(), 180_000);
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    clearTimeout(timer);
    const requests = server.requests.filter((r) => r.method === 'POST');
    const toolResultRequest = requests.find(withToolResult);
    const problems: string[] = [];
    if (code !== 0) problems.push(`exit ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`);
    if (!out.includes(ANSWER)) problems.push(`the answer is not in stdout (${JSON.stringify(out.trim().slice(-200))})`);
    if (toolResultRequest === undefined) problems.push('no request carried the file content back: the tool call was not understood');
    const extra = toolResultRequest === undefined ? undefined : client.extraCheck?.(JSON.stringify(toolResultRequest.body));
    if (extra !== undefined) problems.push(extra);
    lines.push(`${problems.length === 0 ? 'PASS' : 'FAIL'} ${client.name} — ${client.format}`);
    lines.push(`     ${requests.length} requests (${[...new Set(requests.map((r) => r.path))].join(', ')}), ${Math.round(performance.now() - t0)} ms, answer ${out.includes(ANSWER) ? 'printed' : 'missing'}`);
    for (const p of problems) lines.push(`     ${p}`);
    return { ok: problems.length === 0, lines };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const given = process.env.REAL_CLIENTS_DIR;
const dir = given ?? mkdtempSync(join(tmpdir(), 'moat-real-clients-'));
try {
  if (given === undefined) await install(dir);
  const binDir = join(dir, 'node_modules', '.bin');
  for (const name of ['codex', 'opencode', 'gemini']) {
    const v = Bun.spawnSync([join(binDir, name), '--version'], { stdout: 'pipe', stderr: 'pipe' });
    console.log(`${name} ${v.stdout.toString().trim().split('\n').at(-1)}`);
  }
  let failed = 0;
  for (const client of CLIENTS) {
    const { ok, lines } = await runClient(client, binDir);
    if (!ok) failed++;
    console.log(lines.join('\n'));
  }
  process.exitCode = failed === 0 ? 0 : 1;
} finally {
  if (given === undefined) rmSync(dir, { recursive: true, force: true });
}
