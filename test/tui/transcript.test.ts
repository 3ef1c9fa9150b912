import { expect, test } from 'bun:test';
import { renderItem } from '../../src/tui/render/items.ts';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { Transcript } from '../../src/tui/state/transcript.ts';
import type { StaticItem } from '../../src/tui/state/types.ts';
import { deltas } from './fake-client.ts';

setColorLevel(0);

function printed(items: StaticItem[]): string {
  return items.flatMap((i) => renderItem(i, { width: 100, cwd: '/p', now: 0 })).join('\n');
}

/** Feeds deltas, flushing like the timer would, and collects everything committed. */
/** `maxLive`: the most code lines the live cell held after a flush. */
function stream(text: string, size: number): { t: Transcript; all: StaticItem[]; maxLive: number } {
  const t = new Transcript({ flushMs: 1_000_000 });
  const all: StaticItem[] = [];
  let seen = 0;
  t.committed.subscribe(() => {
    const items = t.committed.get().items;
    all.push(...items.slice(seen));
    seen = items.length;
  });
  t.startRun();
  t.apply({ type: 'turn_started', turn: 1 });
  let maxLive = 0;
  for (const e of deltas(text, size)) {
    t.apply(e);
    t.flush();
    const live = t.live.get();
    maxLive = Math.max(maxLive, live.codeTail?.lines.length ?? 0);
  }
  t.apply({ type: 'assistant_message', turn: 1, message: { role: 'assistant', content: [{ type: 'text', text }] }, usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 } });
  t.endRun();
  return { t, all, maxLive };
}

test('a long code block streams into scrollback in chunks, every line exactly once', () => {
  const code = Array.from({ length: 100 }, (_, i) => `let v${String(i).padStart(3, '0')} = ${i};`);
  const text = `Intro.\n\n\`\`\`js\n${code.join('\n')}\n\`\`\`\n\nOutro.`;
  for (const size of [1, 3, 17, 64]) {
    const { all, maxLive } = stream(text, size);
    const out = printed(all);
    for (let i = 0; i < 100; i++) expect(out.split(`v${String(i).padStart(3, '0')} `).length - 1).toBe(1);
    expect(out).toContain('Intro.');
    expect(out).toContain('Outro.');
    // Each complete line went to scrollback on the flush that completed it: only the partial line stays live.
    expect(maxLive).toBe(1);
    expect(all.filter((i) => i.kind === 'code').length).toBeGreaterThan(5);
  }
});

test('streamed in chunks or whole, the message prints the same lines', () => {
  const text = `# T\n\nPara.\n\n\`\`\`\n${Array.from({ length: 20 }, (_, i) => `x${i}`).join('\n')}\n\`\`\`\n\n- a\n- b`;
  const chunked = printed(stream(text, 5).all).split('\n').filter((l) => l.trim());
  const whole = printed(stream(text, 10_000).all).split('\n').filter((l) => l.trim());
  expect(chunked).toEqual(whole);
});

test('finished tool cards are committed in call order', () => {
  const t = new Transcript({ flushMs: 1_000_000 });
  t.startRun();
  for (const id of ['a', 'b']) {
    t.apply({ type: 'tool_call_started', toolUseId: id, name: 'Read', index: 1 });
    t.apply({ type: 'tool_call_ready', toolUseId: id, name: 'Read', input: { file_path: `/p/${id}.ts` } });
    t.apply({ type: 'tool_started', toolUseId: id, name: 'Read' });
  }
  t.apply({ type: 'tool_finished', toolUseId: 'b', name: 'Read', content: 'x', isError: false, durationMs: 1 });
  expect(t.committed.get().items.filter((i) => i.kind === 'tool')).toHaveLength(0);
  t.apply({ type: 'tool_finished', toolUseId: 'a', name: 'Read', content: 'x', isError: false, durationMs: 1 });
  const ids = t.committed.get().items.flatMap((i) => (i.kind === 'tool' ? [i.call.id] : []));
  expect(ids).toEqual(['a', 'b']);
  expect(t.live.get().tools).toEqual([]);
});

test('printed items can be dropped so a long session does not keep them', () => {
  const t = new Transcript();
  for (let i = 0; i < 150; i++) t.commit({ kind: 'notice', level: 'info', text: `n${i}` });
  t.dropPrinted(150);
  t.commit({ kind: 'notice', level: 'info', text: 'after' });
  const c = t.committed.get();
  expect(c.epoch).toBe(1);
  expect(c.items.map((i) => (i.kind === 'notice' ? i.text : ''))).toEqual(['after']);
});

test('a code block closing in the same flush as the text after it: block, then text, nothing lost', () => {
  const text = 'Intro.\n\n```sh\nls -la\necho done\n```\n\nAfter the code.\n\nLast.';
  for (const size of [2, 9, 40, 10_000]) {
    const out = printed(stream(text, size).all);
    for (const m of ['Intro.', 'ls -la', 'echo done', 'After the code.', 'Last.']) expect(out.split(m).length - 1).toBe(1);
    expect(out.indexOf('echo done')).toBeLessThan(out.indexOf('After the code.'));
  }
});

test('a retried attempt drops its partial code block; the next attempt starts clean', () => {
  const t = new Transcript({ flushMs: 1_000_000 });
  t.startRun();
  t.apply({ type: 'turn_started', turn: 1 });
  t.apply({ type: 'text_delta', turn: 1, index: 0, text: '```js\nlet a = 1;\nlet b' });
  t.flush();
  t.apply({ type: 'retry', turn: 1, attempt: 1, maxRetries: 4, delayMs: 10, message: 'overloaded', kind: 'overloaded', status: 529 });
  t.apply({ type: 'text_delta', turn: 1, index: 0, text: 'Plain answer.\n\nSecond.' });
  t.flush();
  const live = t.live.get();
  expect(live.codeTail).toBeUndefined();
  expect(live.codeLinesCommitted).toBe(0);
  expect(live.text).toBe('Second.');
});

test('a block comment streamed a line at a time keeps its colour in scrollback', () => {
  setColorLevel(3);
  try {
    const code = ['/*', ' * first', ' * second', ' */', 'const x = 1;'].join('\n');
    const text = `\`\`\`js\n${code}\n\`\`\``;
    const whole = printed(stream(text, 10_000).all).split('\n');
    const chunked = printed(stream(text, 3).all).split('\n');
    // The middle comment lines are grey (comment), not plain, even though each arrived in its own chunk.
    expect(chunked.find((l) => l.includes('second'))).toContain('\x1b[90m');
    expect(chunked).toEqual(whole);
  } finally {
    setColorLevel(0);
  }
});

test('a fallback to another model drops the failed attempt and says which model took over', () => {
  const t = new Transcript({ flushMs: 1_000_000 });
  const all: StaticItem[] = [];
  let seen = 0;
  t.committed.subscribe(() => {
    const items = t.committed.get().items;
    all.push(...items.slice(seen));
    seen = items.length;
  });
  t.startRun();
  t.apply({ type: 'turn_started', turn: 1 });
  t.apply({ type: 'text_delta', turn: 1, index: 0, text: 'half an ans' });
  t.flush();
  t.apply({ type: 'model_fallback', turn: 1, from: 'claude-sonnet-4-5', to: 'openai/gpt-5.1', reason: 'Anthropic API error 529: overloaded', trigger: 'overloaded' });
  expect(t.live.get().text).toBe('');
  expect(printed(all)).toContain('claude-sonnet-4-5: Anthropic API error 529: overloaded — switching to openai/gpt-5.1.');
});

test('after a compaction the status line counts the summary, not the summary request that read the old history', () => {
  const t = new Transcript({ flushMs: 1_000_000 });
  t.startRun();
  const zero = { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };
  t.apply({ type: 'usage', turn: 1, turnUsage: { ...zero, inputTokens: 150_000, cacheReadInputTokens: 20_000, outputTokens: 900 }, sessionUsage: zero, turnCostUsd: 0.5, sessionCostUsd: 1.25 });
  expect(t.usage.get()).toEqual({ contextTokens: 170_000, costUsd: 1.25 });
  t.apply({ type: 'compacted', trigger: 'manual', preTokens: 170_000, postTokens: 900, durationMs: 1200 });
  expect(t.usage.get()).toEqual({ contextTokens: 900, costUsd: 1.25 });
  t.endRun();
});
