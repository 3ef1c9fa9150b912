import { expect, test } from 'bun:test';
import { applyCompletion, completeModel } from '../../src/tui/state/completion.ts';

const MODELS = ['claude-sonnet-4-5', 'claude-opus-4-5', 'openai/gpt-5.1', 'openai/gpt-5.1-codex', 'gemini/gemini-2.5-pro', 'ollama/qwen3-coder'];

test('/model completes model names across providers, fuzzily', () => {
  const c = completeModel('/model gem', 10, () => MODELS);
  expect(c?.kind).toBe('model');
  expect(c?.options.map((o) => o.value)[0]).toBe('gemini/gemini-2.5-pro');
  expect(completeModel('/model gpt51', 12, () => MODELS)?.options.map((o) => o.value)).toEqual(['openai/gpt-5.1', 'openai/gpt-5.1-codex']);
  // Nothing after /model yet: every model is offered.
  expect(completeModel('/model ', 7, () => MODELS)?.options.length).toBe(MODELS.length);
  // Not a /model line, or the name already complete: no menu.
  expect(completeModel('/clear gem', 10, () => MODELS)).toBeUndefined();
  expect(completeModel('/model ollama/qwen3-coder', 25, () => MODELS)).toBeUndefined();
  const done = applyCompletion('/model gem', c!, 0);
  expect(done).toEqual({ value: '/model gemini/gemini-2.5-pro ', cursor: 29 });
});
