/**
 * `checkModels` at start: a fallback whose provider has no key is one warning line naming the variable
 * (a turn that fell back to it would fail, and a missing key never falls further); the chosen model
 * without a key still stops moat.
 */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkModels, modelRouter } from '../../src/cli/model-setup.ts';
import { loadConfig } from '../../src/config/index.ts';
import { ModelRouter } from '../../src/providers/index.ts';

describe('checkModels and fallback keys', () => {
  test('one line per fallback without its key, naming the variables; local and keyed fallbacks say nothing', () => {
    const router = new ModelRouter({ env: { ANTHROPIC_API_KEY: 'k', DEEPSEEK_API_KEY: 'd' } });
    const lines: string[] = [];
    const settings = { model: 'claude-sonnet-4-5', fallbackModels: ['openai/gpt-5.1', 'ollama/qwen3-coder', 'deepseek/deepseek-chat', 'gemini/gemini-2.5-pro', 'openai/gpt-5.1'] };
    checkModels(router, settings, (l) => lines.push(l));
    expect(lines).toEqual([
      'fallback model openai/gpt-5.1 has no API key: set OPENAI_API_KEY, or a turn that falls back to it will fail',
      'fallback model gemini/gemini-2.5-pro has no API key: set GEMINI_API_KEY or GOOGLE_API_KEY, or a turn that falls back to it will fail',
    ]);
    // A skill's model checks the settings again: the warnings are not repeated.
    checkModels(router, settings, (l) => lines.push(l));
    expect(lines.length).toBe(2);
  });

  test('with the keys set, nothing; without the chosen model\'s key, moat stops', () => {
    const lines: string[] = [];
    checkModels(new ModelRouter({ env: { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'o' } }), { model: 'claude-sonnet-4-5', fallbackModels: ['openai/gpt-5.1'] }, (l) => lines.push(l));
    expect(lines).toEqual([]);
    expect(() => checkModels(new ModelRouter({ env: {} }), { model: 'openai/gpt-5.1' }, (l) => lines.push(l))).toThrow(/no API key for openai: set OPENAI_API_KEY/);
  });
});

describe('modelRouter from the configuration', () => {
  test('[providers.<name>] tool_call_rules reaches the provider, over the built-in entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'moat-router-'));
    try {
      mkdirSync(join(dir, 'moat'));
      writeFileSync(join(dir, 'moat', 'config.toml'), '[providers.gw]\ntype = "openai-chat"\nbase_url = "https://gw.example.com/v1"\ntool_call_rules = "mistral"\n');
      const env = { XDG_CONFIG_HOME: dir, HOME: dir };
      const router = modelRouter(loadConfig({ cwd: dir, env }), env);
      expect(router.providers['gw']).toMatchObject({ type: 'openai-chat', baseUrl: 'https://gw.example.com/v1', toolCallRules: 'mistral' });
      expect(router.providers['mistral']?.toolCallRules).toBe('mistral');
      expect(router.providers['openai']?.toolCallRules).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
