import { afterEach, describe, expect, test } from 'bun:test';
import type { FakeClient } from './fake-client.ts';
import { finished } from './fake-client.ts';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

afterEach(unmountAll);

function withSkills(c: FakeClient): void {
  c.skillList = [
    { name: 'review', description: 'review a change for bugs', args: '<file>', body: 'Review $ARGUMENTS carefully.', required: true },
    { name: 'release-notes', description: 'draft release notes', body: 'Write release notes.' },
    // A skill may not shadow a built-in command.
    { name: 'help', description: 'a skill named help', body: 'never' },
  ];
}

const startWithSkills = (configure?: (c: FakeClient) => void) =>
  start((c) => {
    withSkills(c);
    configure?.(c);
  });

const editor = (h: ReturnType<typeof start>) => h.app.ui.get().editor;

describe('skills', () => {
  test('/ completion lists the skills with their descriptions after the built-ins', async () => {
    const h = startWithSkills();
    await h.until('Ask moat');
    await h.type('/re');
    const options = h.app.ui.get().completion?.options ?? [];
    expect(options.map((o) => o.value)).toEqual(['/resume', '/rewind', '/review', '/release-notes']);
    expect(options.find((o) => o.value === '/review')).toEqual({ value: '/review', label: '/review <file>', detail: 'review a change for bugs' });
    await h.until('draft release notes');
    // Only one /help: the built-in.
    expect(h.app.commands.filter((c) => c.name === 'help')).toHaveLength(1);
  });

  test('/name args runs the skill: the transcript shows what was typed, the model gets the skill body', async () => {
    const h = startWithSkills((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('/review src/app.ts');
    await h.press(KEYS.tab);
    await waitFor(() => editor(h).value === '/review src/app.ts', 'completion left the arguments alone');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'sent');
    expect(h.controller.prompts[0]?.text).toBe('/review\n\nReview src/app.ts carefully.');
    await h.until('> /review src/app.ts');
    expect(h.frame()).not.toContain('Review src/app.ts carefully.');
  });

  test('a missing required argument shows the usage line and sends nothing', async () => {
    const h = startWithSkills();
    await h.until('Ask moat');
    await h.type('/review');
    await h.press(KEYS.enter);
    await h.until('/review needs <file>: usage: /review <file>');
    expect(h.controller.prompts).toHaveLength(0);
  });

  test('an unknown /word says so; a path is a prompt, not a command', async () => {
    const h = startWithSkills((c) => c.scripts.push([finished('end_turn')]));
    await h.until('Ask moat');
    await h.type('/nope please');
    await h.press(KEYS.enter);
    await h.until('Unknown command /nope. /help lists the commands and skills.');
    expect(h.controller.prompts).toHaveLength(0);
    await h.type('/etc/hosts is wrong');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.prompts.length === 1, 'sent as a prompt');
    expect(h.controller.prompts[0]?.text).toBe('/etc/hosts is wrong');
  });

  test('/help lists the skills', async () => {
    const h = startWithSkills();
    await h.until('Ask moat');
    await h.type('/help');
    await h.press(KEYS.enter);
    await h.until('Skills');
    expect(h.frame()).toContain('/review <file>');
    expect(h.frame()).toContain('draft release notes');
    expect(h.frame()).not.toContain('a skill named help');
  });
});

describe('/permissions remove', () => {
  test('removes the rule through the remove_rule operation, and says when there is none', async () => {
    const h = startWithSkills();
    await h.until('Ask moat');
    await h.type('/permissions remove Bash(npm test:*)');
    await h.press(KEYS.enter);
    await h.until('Removed Bash(npm test:*).');
    expect(h.controller.rules).toEqual([]);
    await h.type('/permissions remove Bash(npm test:*)');
    await h.press(KEYS.enter);
    await h.until('No rule Bash(npm test:*) to remove.');
  });
});
