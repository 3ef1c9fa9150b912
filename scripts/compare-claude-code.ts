/**
 * The same scripted runs through Claude Code and through moat, both driven
 * the way the Agent SDK drives them (stream-json in and out, initialize, a
 * user line, can_use_tool answered on stdin), against the same fake model
 * server. Both outputs are normalised (ids, times, costs, paths) and compared
 * line by line and key by key for each line type; the differences are
 * printed as a report (docs/claude-code-compat.md lists them as deliberate
 * or fixed).
 *
 * Run: bun run build && bun run scripts/compare-claude-code.ts [--json]
 * Claude Code: CLAUDE_BIN, else the executable the Agent SDK devDependency
 * ships (node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic, type FakeScriptItem } from '../test/support/fake-anthropic.ts';

const ROOT = resolve(import.meta.dir, '..');
const MOAT = resolve(ROOT, 'dist/moat');
const CLAUDE = process.env.CLAUDE_BIN ?? resolve(ROOT, 'node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Line = { [k: string]: Json };

interface Scenario {
  name: string;
  /** Files in the working folder before the run. */
  files: Record<string, string>;
  /** The model's replies; `tool` is the agent's name for a tool (Claude Code's `Read` is moat's `Read` or `read`). */
  script: (tool: (cc: string) => string) => FakeScriptItem[];
  prompt: string;
  flags: string[];
  /** The program's answer to each can_use_tool. */
  answer: (request: { tool_name: string; input: Json }) => Json;
}

const allow = (r: { input: Json }): Json => ({ behavior: 'allow', updatedInput: r.input });

const SCENARIOS: Scenario[] = [
  {
    name: 'read-then-answer (partial messages)',
    files: { 'a.txt': 'hello\n' },
    script: (tool) => [
      reply().thinking('Reading it.', 'sig-1').text('Let me read.').toolUse(tool('Read'), { file_path: 'a.txt' }).stop('tool_use'),
      reply().text('It says hello.'),
    ],
    prompt: 'what is in a.txt?',
    flags: ['--include-partial-messages'],
    answer: allow,
  },
  {
    name: 'edit in acceptEdits',
    files: { 'b.txt': 'one\ntwo\nthree\n' },
    script: (tool) => [
      reply().toolUse(tool('Read'), { file_path: 'b.txt' }).stop('tool_use'),
      reply().toolUse(tool('Edit'), { file_path: 'b.txt', old_string: 'two', new_string: 'TWO' }).stop('tool_use'),
      reply().text('Changed line 2.'),
    ],
    prompt: 'uppercase two in b.txt',
    flags: ['--permission-mode', 'acceptEdits'],
    answer: allow,
  },
  {
    name: 'bash denied through can_use_tool',
    files: {},
    script: (tool) => [reply().toolUse(tool('Bash'), { command: 'touch made.txt' }).stop('tool_use'), reply().text('I could not.')],
    prompt: 'make a file',
    flags: [],
    answer: () => ({ behavior: 'deny', message: 'not today' }),
  },
];

/** Runs one agent through one scenario; returns its stdout lines (control responses to initialize left out). */
async function runAgent(bin: string, scenario: Scenario, toolName: (cc: string) => string): Promise<Line[]> {
  const server = await startFakeAnthropic();
  server.script(...scenario.script(toolName));
  const root = mkdtempSync(join(tmpdir(), 'moat-compare-'));
  try {
    const home = join(root, 'home');
    const cwd = join(root, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    for (const [f, text] of Object.entries(scenario.files)) writeFileSync(join(cwd, f), text);
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local/share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      ANTHROPIC_API_KEY: 'fake-key',
      ANTHROPIC_BASE_URL: server.url,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    };
    const argv = [bin, '--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--model', 'claude-sonnet-4-5', '--permission-prompt-tool', 'stdio', ...scenario.flags];
    const proc = Bun.spawn(argv, { cwd, env, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
    const send = (o: Json) => {
      void proc.stdin.write(`${JSON.stringify(o)}\n`);
      void proc.stdin.flush();
    };
    send({ type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } });
    send({ type: 'user', session_id: '', parent_tool_use_id: null, message: { role: 'user', content: scenario.prompt } });
    const lines: Line[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    const timer = setTimeout(() => proc.kill(), 60_000);
    for await (const chunk of proc.stdout) {
      buffer += decoder.decode(chunk);
      let i;
      while ((i = buffer.indexOf('\n')) >= 0) {
        const text = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        if (text.trim() === '') continue;
        const line = JSON.parse(text) as Line;
        const request = line['request'] as { subtype?: string; tool_name?: string; input?: Json } | undefined;
        if (line['type'] === 'control_request' && request?.subtype === 'can_use_tool') {
          send({ type: 'control_response', response: { subtype: 'success', request_id: line['request_id'] as string, response: scenario.answer({ tool_name: request.tool_name ?? '', input: request.input ?? {} }) } });
        }
        if (line['type'] === 'control_response') continue;
        lines.push(normalise(line, cwd) as Line);
        if (line['type'] === 'result') void proc.stdin.end();
      }
    }
    clearTimeout(timer);
    await proc.exited;
    return lines;
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VOLATILE_NUMBERS = /(_ms|_usd|costUSD|Ms)$/;

/** Ids, times, costs and the temp folder replaced by placeholders, so only meaningful differences remain. */
function normalise(v: Json, cwd: string, key = ''): Json {
  if (typeof v === 'string') {
    if (UUID.test(v)) return '<uuid>';
    // Tool-use ids come from the fake server's script builder, numbered per run.
    if (/^toolu_/.test(v)) return '<tool_use_id>';
    if (/^\d{4}-\d\d-\d\dT/.test(v)) return '<time>';
    return v.split(cwd).join('<cwd>');
  }
  if (typeof v === 'number') return VOLATILE_NUMBERS.test(key) ? '<number>' : v;
  if (Array.isArray(v)) return v.map((x) => normalise(x, cwd, key));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(x, cwd, k)]));
  return v;
}

function kindOf(l: Line): string {
  const event = l['event'] as { type?: string; delta?: { type?: string }; content_block?: { type?: string } } | undefined;
  if (l['type'] === 'stream_event' && event) return `stream_event/${event.type}${event.delta?.type ? `/${event.delta.type}` : ''}${event.content_block?.type ? `/${event.content_block.type}` : ''}`;
  if (l['type'] === 'assistant') {
    const content = (l['message'] as { content?: { type: string }[] } | undefined)?.content ?? [];
    return `assistant/${content.map((c) => c.type).join('+')}`;
  }
  if (l['type'] === 'user') {
    const content = (l['message'] as { content?: { type: string }[] } | undefined)?.content ?? [];
    return `user/${content.map((c) => c.type).join('+')}`;
  }
  return typeof l['subtype'] === 'string' ? `${String(l['type'])}/${l['subtype']}` : String(l['type']);
}

interface Difference {
  kind: string;
  path: string;
  claude: string;
  moat: string;
}

const show = (v: Json | undefined) => (v === undefined ? '(absent)' : JSON.stringify(v).slice(0, 120));

function diff(kind: string, a: Json | undefined, b: Json | undefined, path: string, out: Difference[]): void {
  const isObj = (x: Json | undefined): x is { [k: string]: Json } => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diff(kind, a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diff(kind, x, b[i], `${path}[${i}]`, out));
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ kind, path, claude: show(a), moat: show(b) });
}

/** Pairs the lines of each kind in order and compares them; kinds only one side writes are listed as such. */
function compare(cc: Line[], moat: Line[]): { onlyClaude: string[]; onlyMoat: string[]; differences: Difference[]; order: { claude: string[]; moat: string[] } } {
  const byKind = (lines: Line[]) => {
    const m = new Map<string, Line[]>();
    for (const l of lines) m.set(kindOf(l), [...(m.get(kindOf(l)) ?? []), l]);
    return m;
  };
  const a = byKind(cc);
  const b = byKind(moat);
  const differences: Difference[] = [];
  for (const [kind, lines] of a) {
    const other = b.get(kind);
    if (!other) continue;
    for (let i = 0; i < Math.min(lines.length, other.length); i++) diff(kind, lines[i], other[i], '', differences);
    if (lines.length !== other.length) differences.push({ kind, path: '(count)', claude: String(lines.length), moat: String(other.length) });
  }
  return {
    onlyClaude: [...a.keys()].filter((k) => !b.has(k)),
    onlyMoat: [...b.keys()].filter((k) => !a.has(k)),
    differences,
    order: { claude: cc.map(kindOf), moat: moat.map(kindOf) },
  };
}

if (!existsSync(CLAUDE)) throw new Error(`Claude Code not found at ${CLAUDE} (set CLAUDE_BIN, or bun install the Agent SDK devDependency)`);
if (!existsSync(MOAT)) throw new Error(`${MOAT} not built: bun run build`);
const asJson = process.argv.includes('--json');
const report: { scenario: string; result: ReturnType<typeof compare> }[] = [];
for (const scenario of SCENARIOS) {
  const cc = await runAgent(CLAUDE, scenario, (n) => n);
  // The tools have Claude Code's names in moat too: the same script drives both.
  const moat = await runAgent(MOAT, scenario, (n) => n);
  report.push({ scenario: scenario.name, result: compare(cc, moat) });
}
if (asJson) {
  console.log(JSON.stringify(report, null, 2));
} else {
  for (const { scenario, result } of report) {
    console.log(`\n## ${scenario}`);
    console.log(`line kinds only Claude Code writes: ${result.onlyClaude.join(', ') || '(none)'}`);
    console.log(`line kinds only moat writes: ${result.onlyMoat.join(', ') || '(none)'}`);
    console.log(`differences in shared line kinds: ${result.differences.length}`);
    for (const d of result.differences) console.log(`  ${d.kind}  ${d.path}: claude ${d.claude} | moat ${d.moat}`);
  }
}
