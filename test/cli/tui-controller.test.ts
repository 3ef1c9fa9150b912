/**
 * The real TuiController in process: a real store, real config files in a
 * temp repo, the provider pointed at the fake server. What the UI asks of it
 * (skills, model and mode, permission rules) must reach the open session and
 * the files, not just a shared settings object.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent, AgentSettings } from '../../src/agent/index.ts';
import { createTuiController } from '../../src/cli/tui-controller.ts';
import { loadConfig } from '../../src/config/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import type { Skill } from '../../src/skills/index.ts';
import { openStore } from '../../src/store/index.ts';
import { builtinTools, parseRuleList, ToolRegistry } from '../../src/tools/index.ts';
import type { TuiController } from '../../src/tui/index.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let root: string;
let controller: TuiController | undefined;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  controller?.shutdown();
  await server.close();
});
beforeEach(() => {
  controller?.shutdown();
  controller = undefined;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'moat-tui-ctl-')));
  mkdirSync(join(root, '.git'));
  server.requests.length = 0;
});

const REVIEW: Skill = {
  name: 'review',
  description: 'review a file',
  args: [{ name: 'file', required: true }],
  body: 'Review ${file} for bugs.',
  source: 'project',
  file: '/x/review/SKILL.md',
};

function make(projectToml?: string): { c: TuiController; settings: AgentSettings; projectFile: string } {
  const projectFile = join(root, '.moat', 'config.toml');
  if (projectToml !== undefined) {
    mkdirSync(join(root, '.moat'), { recursive: true });
    writeFileSync(projectFile, projectToml);
  }
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', '.config') };
  const loaded = loadConfig({ cwd: root, env });
  const settings: AgentSettings = {
    model: 'claude-sonnet-4-5',
    maxTokens: 1000,
    permissionMode: 'default',
    allow: parseRuleList(loaded.config.permissions.allow),
    deny: parseRuleList(loaded.config.permissions.deny),
    cwd: root,
    addDirs: [],
    projectRoot: root,
    home: env.HOME,
    idleTimeoutMs: 5000,
    bashTimeoutMs: 10_000,
    retryBaseMs: 10,
  };
  const c = createTuiController({
    provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
    registry: new ToolRegistry(builtinTools()),
    store: openStore(join(root, '.db', 'moat.db')),
    settings,
    loaded,
    logFile: join(root, 'tui.log'),
    skills: [REVIEW],
  });
  controller = c;
  return { c, settings, projectFile };
}

async function drain(it: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

test('skills: listed with their usage; /name args expands; a missing argument is the usage line', () => {
  const { c } = make();
  expect(c.skills()).toEqual([{ name: 'review', description: 'review a file', args: '<file>' }]);
  expect(c.skillPrompt('review', 'src/a.ts')).toContain('Review src/a.ts for bugs.');
  expect(c.skillPrompt('nope', '')).toBeUndefined();
  expect(() => c.skillPrompt('review', '')).toThrow('/review needs <file>');
});

test('model and mode go to the open session (status and next request) and to later sessions', async () => {
  const { c } = make();
  c.setModel('claude-opus-4-5');
  c.setPermissionMode('acceptEdits');
  expect(c.info()).toMatchObject({ model: 'claude-opus-4-5', permissionMode: 'acceptEdits' });
  server.script(reply().text('ok').stop('end_turn'));
  await drain(c.run({ text: 'hi', attachments: [], shellContext: [] }, new AbortController().signal));
  expect((server.requests[0]?.body as { model?: string } | undefined)?.model).toBe('claude-opus-4-5');
  // /clear keeps the choice.
  expect(c.newSession()).toMatchObject({ model: 'claude-opus-4-5', permissionMode: 'acceptEdits' });
});

test('/permissions remove edits the project file (comments kept) and the open session stops applying the rule', () => {
  const { c, projectFile } = make('# team rules\n[permissions]\nallow = [\n  "Read", # always fine\n  "Bash(npm test:*)",\n]\n');
  expect(c.permissionRules().map((r) => r.rule)).toEqual(['Read', 'Bash(npm test:*)']);
  expect(c.removePermissionRule('Bash(npm test:*)', 'allow')).toBe(true);
  expect(readFileSync(projectFile, 'utf8')).toBe('# team rules\n[permissions]\nallow = [\n  "Read", # always fine\n]\n');
  expect(c.permissionRules().map((r) => r.rule)).toEqual(['Read']);
  expect(c.removePermissionRule('Bash(npm test:*)', 'allow')).toBe(false);
  // A rule added in this session can be removed again.
  c.addPermissionRule('Bash(ls:*)', 'deny', 'project');
  expect(readFileSync(projectFile, 'utf8')).toContain('deny = ["Bash(ls:*)"]');
  expect(c.removePermissionRule('Bash(ls:*)', 'deny')).toBe(true);
  expect(readFileSync(projectFile, 'utf8')).not.toContain('Bash(ls:*)');
  expect(c.permissionRules().map((r) => r.rule)).toEqual(['Read']);
});
