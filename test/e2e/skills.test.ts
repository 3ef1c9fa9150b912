/**
 * End to end: skills in the compiled dist/moat against the scripted fake
 * Anthropic server, in a throwaway HOME. Run `bun run build` first.
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

interface WireBody {
  system: unknown;
  tools: { name: string }[];
  messages: { role: string; content: { type: string; text?: string; content?: unknown; is_error?: boolean }[] }[];
}
const bodyOf = (i: number) => server.requests[i]!.body as WireBody;
const firstUserText = (i: number) => bodyOf(i).messages[0]!.content[0]!.text ?? '';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  expect(server.remaining()).toBe(0);
  server.requests.length = 0;
});

const moat = (args: string[], stdin?: string) => runMoat(args, { cwd: sb.cwd, env: sb.env, stdin });
function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('moat -p "/name args"', () => {
  test('the bundled skill body, expanded, is the prompt the model gets; skills are listed and the skill tool offered', async () => {
    server.script(reply().text('It exports x.'));
    const r = await moat(['-p', '/explain src/x.ts']);
    expect(r).toEqual({ code: 0, stdout: 'It exports x.\n', stderr: '' });
    const text = firstUserText(0);
    expect(text).toStartWith('/explain src/x.ts\n\n<skill name="explain">\n');
    expect(text).toContain('Explain `src/x.ts` to an engineer who is new to this codebase.');
    expect(text).toContain('**Where to go next**');
    expect(text).not.toContain('$ARGUMENTS');
    expect(bodyOf(0).tools.map((t) => t.name)).toContain('Skill');
    const system = JSON.stringify(bodyOf(0).system);
    expect(system).toContain('# Skills');
    expect(system).toContain('- code-review: Reviews the staged changes');
    expect(system).not.toContain('Where to go next');
  });

  test('a project skill overrides the bundled one of the same name; a bad skill file is a warning, not a failure', async () => {
    put(join(sb.cwd, '.moat', 'skills', 'explain', 'SKILL.md'), '---\ndescription: House explain\n---\nHOUSE STYLE: explain [$1] then [$2]\n');
    const bad = join(sb.cwd, '.claude', 'skills', 'broken', 'SKILL.md');
    put(bad, '---\nname: broken\n---\nno description\n');
    server.script(reply().text('ok'));
    const r = await moat(['-p', '/explain "a b" c']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`moat: warning: ${bad}: description: is required: one line saying what the skill does (skipped)\n`);
    const dir = join(sb.cwd, '.moat', 'skills', 'explain');
    expect(firstUserText(0)).toBe(`/explain "a b" c\n\n<skill name="explain">\nBase directory for this skill: ${dir}\n\nHOUSE STYLE: explain [a b] then [c]\n</skill>`);
  });

  test('stdin is part of the arguments: /code-review < patch', async () => {
    server.script(reply().text('reviewed'));
    const r = await moat(['-p', '/code-review'], '--- a/x.ts\n+++ b/x.ts\n');
    expect(r.code).toBe(0);
    expect(firstUserText(0)).toContain('Target: --- a/x.ts\n+++ b/x.ts\n');
  });

  test('a missing required argument is a usage error (exit 2) before any request', async () => {
    const r = await moat(['-p', '/write-tests']);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'moat: /write-tests needs <file>: usage: /write-tests <file> [focus]\n' });
    expect(server.requests.length).toBe(0);
  });

  test('an unknown /name is sent as written, with a warning', async () => {
    server.script(reply().text('hm'));
    const r = await moat(['-p', '/explian x']);
    expect(r.stderr).toContain('/explian is not a skill');
    expect(firstUserText(0)).toBe('/explian x');
  });

  test('the model calls the skill tool and gets the expanded body back', async () => {
    server.script(reply().toolUse('Skill', { name: 'write-tests', args: 'src/date.ts' }).stop('tool_use'), reply().text('done'));
    const r = await moat(['-p', 'add tests for the date helpers']);
    expect(r.code).toBe(0);
    const result = bodyOf(1).messages.at(-1)!.content.find((c) => c.type === 'tool_result')!;
    expect(result.is_error).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('Add tests for `src/date.ts`.');
  });
});

describe('moat skill / moat agents', () => {
  test('skill list shows bundled and project skills with their source', async () => {
    put(join(sb.cwd, '.moat', 'skills', 'deploy', 'SKILL.md'), '---\ndescription: Ship it\n---\nDeploy.\n');
    const r = await moat(['skill', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').map((l) => l.split(/\s{2,}/).slice(0, 2).join(' '))).toEqual([
      'code-review bundled',
      'commit bundled',
      'deploy project',
      'explain bundled',
      'write-tests bundled',
      '',
    ]);
  });

  test('skill init writes a skeleton that skill show then loads; a second init refuses', async () => {
    const init = await moat(['skill', 'init', 'triage']);
    expect(init.code).toBe(0);
    const file = join(sb.cwd, '.moat', 'skills', 'triage', 'SKILL.md');
    expect(readFileSync(file, 'utf8')).toContain('name: triage');
    const show = await moat(['skill', 'show', 'triage']);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`source: project (${file})`);
    const again = await moat(['skill', 'init', 'triage']);
    expect(again).toEqual({ code: 2, stdout: '', stderr: `moat: ${file} already exists; not overwriting it\n` });
  });

  test('agents list shows the bundled definitions, and a bad user file is reported with its field', async () => {
    const bad = join(sb.home, '.config', 'moat', 'agents', 'slow.md');
    put(bad, '---\ndescription: d\nmax_turns: 0\n---\nprompt\n');
    const r = await moat(['agents', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').map((l) => l.split(/\s+/)[0])).toEqual(['explore', 'general', 'review', '']);
    expect(r.stderr).toBe(`moat: warning: ${bad}: max_turns: must be at least 1 (skipped)\n`);
  });
});
