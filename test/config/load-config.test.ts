import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Config, DEFAULT_SANDBOX_CEILING, loadConfig, Secret, trustProject } from '../../src/config/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';
import { tempDir } from '../support/temp.ts';

const tmp = useTmp();

/** A home with a user config folder and a git repository with a subfolder as cwd. */
function world(): { home: string; repo: string; cwd: string; env: Record<string, string>; userFile: string; projectFile: string } {
  const home = tmp();
  const repo = join(home, 'repo');
  const cwd = join(repo, 'pkg');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  return {
    home,
    repo,
    cwd,
    env: { HOME: home },
    userFile: join(home, '.config', 'moat', 'config.toml'),
    projectFile: join(repo, '.moat', 'config.toml'),
  };
}

const DEFAULTS: Config = {
  model: 'claude-sonnet-4-5',
  maxTurns: undefined,
  maxBudgetUsd: undefined,
  permissionMode: 'default',
  permissions: { allow: [], deny: [], ask: [] },
  addDirs: [],
  streamIdleTimeoutMs: 90_000,
  bashTimeoutMs: 120_000,
  apiBaseUrl: undefined,
  apiKey: undefined,
  maxTokens: 32_000,
  thinkingBudget: undefined,
  maxConcurrentAgents: undefined,
  maxAgentDepth: undefined,
  keymap: {},
  providers: {},
  fallback: [],
};

describe('loadConfig', () => {
  test('with no files, no env and no flags: the defaults', () => {
    const w = world();
    const { reload, ...loaded } = loadConfig({ cwd: w.cwd, env: w.env });
    // The same sources read again, for a folder trusted while moat runs.
    expect(reload?.().config).toEqual(DEFAULTS);
    expect(loaded).toEqual({
      config: DEFAULTS,
      sources: {
        model: { kind: 'default' },
        maxTurns: { kind: 'default' },
        maxBudgetUsd: { kind: 'default' },
        permissionMode: { kind: 'default' },
        permissions: { kind: 'default' },
        addDirs: { kind: 'default' },
        streamIdleTimeoutMs: { kind: 'default' },
        bashTimeoutMs: { kind: 'default' },
        apiBaseUrl: { kind: 'default' },
        apiKey: { kind: 'default' },
        maxTokens: { kind: 'default' },
        thinkingBudget: { kind: 'default' },
        maxConcurrentAgents: { kind: 'default' },
        maxAgentDepth: { kind: 'default' },
        keymap: { kind: 'default' },
        providers: { kind: 'default' },
        fallback: { kind: 'default' },
      },
      rules: [],
      projectRoot: w.repo,
      files: { user: w.userFile, project: w.projectFile },
      loadedFiles: [],
      parsedFiles: { user: undefined, project: undefined },
      toolLimits: { tools: {}, runs: {}, sandbox: DEFAULT_SANDBOX_CEILING },
      osSandbox: { mode: 'auto', scrubEnv: undefined, scrubEnvExtra: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [], allowLoopback: false, limits: {} },
      checkpoints: { enabled: true, keepDays: 30, maxFileBytes: 10 * 1024 * 1024 },
      hooks: {},
      env: {},
      untrusted: [],
    });
  });

  test('precedence: user < project < environment < flags; lists merge; relative dirs resolve per file', () => {
    const w = world();
    write(
      w.userFile,
      [
        '# my defaults',
        'model = "user-model"',
        'max_turns = 10',
        'bash_timeout = 30',
        'add_dirs = ["shared", "~/notes"]',
        '',
        '[permissions]',
        'allow = ["Read", "Bash(npm test:*)"]',
        'deny = ["Bash(rm:*)"]',
      ].join('\n'),
    );
    write(
      w.projectFile,
      [
        'model = "project-model"',
        'max_budget_usd = 2.5',
        'permission_mode = "acceptEdits"',
        'stream_idle_timeout = 1.5',
        'add_dirs = ["../sibling", "/abs"]',
        'thinking_budget = 4096',
        'permissions.allow = ["Bash(npm test:*)", "Edit"]',
      ].join('\n'),
    );
    // Trusted: the project's grants (allow rules, folders, acceptEdits) apply (claude-settings.test.ts covers the untrusted case).
    trustProject(w.repo, join(w.home, '.config', 'moat'));
    const loaded = loadConfig({
      cwd: w.cwd,
      env: { ...w.env, ANTHROPIC_MODEL: 'env-model', ANTHROPIC_BASE_URL: 'http://localhost:8080', ANTHROPIC_API_KEY: 'sk-secret' },
      flags: { maxTurns: 3, allowedTools: ['WebFetch'], disallowedTools: ['Bash(rm:*)'], addDirs: ['flagdir'] },
    });
    expect({ ...loaded.config, apiKey: loaded.config.apiKey?.reveal() }).toEqual({
      model: 'env-model',
      maxTurns: 3,
      maxBudgetUsd: 2.5,
      permissionMode: 'acceptEdits',
      permissions: { allow: ['Read', 'Bash(npm test:*)', 'Edit', 'WebFetch'], deny: ['Bash(rm:*)'], ask: [] },
      addDirs: [
        join(w.home, '.config', 'moat', 'shared'),
        join(w.home, 'notes'),
        join(w.home, 'sibling'),
        '/abs',
        join(w.cwd, 'flagdir'),
      ],
      streamIdleTimeoutMs: 1500,
      bashTimeoutMs: 30_000,
      apiBaseUrl: 'http://localhost:8080',
      apiKey: 'sk-secret',
      maxTokens: 32_000,
      thinkingBudget: 4096,
      maxConcurrentAgents: undefined,
      maxAgentDepth: undefined,
      keymap: {},
      providers: {},
      fallback: [],
    });
    expect(loaded.sources).toEqual({
      model: { kind: 'env', name: 'ANTHROPIC_MODEL' },
      maxTurns: { kind: 'flag', name: '--max-turns' },
      maxBudgetUsd: { kind: 'file', scope: 'project', path: w.projectFile, line: 2 },
      permissionMode: { kind: 'file', scope: 'project', path: w.projectFile, line: 3 },
      permissions: { kind: 'flag', name: '--disallowedTools' },
      addDirs: { kind: 'flag', name: '--add-dir' },
      streamIdleTimeoutMs: { kind: 'file', scope: 'project', path: w.projectFile, line: 4 },
      bashTimeoutMs: { kind: 'file', scope: 'user', path: w.userFile, line: 4 },
      apiBaseUrl: { kind: 'env', name: 'ANTHROPIC_BASE_URL' },
      apiKey: { kind: 'env', name: 'ANTHROPIC_API_KEY' },
      maxTokens: { kind: 'default' },
      thinkingBudget: { kind: 'file', scope: 'project', path: w.projectFile, line: 6 },
      maxConcurrentAgents: { kind: 'default' },
      maxAgentDepth: { kind: 'default' },
      keymap: { kind: 'default' },
      providers: { kind: 'default' },
      fallback: { kind: 'default' },
    });
    expect(loaded.rules).toEqual([
      { list: 'allow', rule: 'Read', source: { kind: 'file', scope: 'user', path: w.userFile, line: 8 } },
      { list: 'allow', rule: 'Bash(npm test:*)', source: { kind: 'file', scope: 'user', path: w.userFile, line: 8 } },
      { list: 'deny', rule: 'Bash(rm:*)', source: { kind: 'file', scope: 'user', path: w.userFile, line: 9 } },
      { list: 'allow', rule: 'Edit', source: { kind: 'file', scope: 'project', path: w.projectFile, line: 7 } },
      { list: 'allow', rule: 'WebFetch', source: { kind: 'flag', name: '--allowedTools' } },
    ]);
    expect(loaded.loadedFiles).toEqual([w.userFile, w.projectFile]);
  });

  test('MOAT_MODEL wins over ANTHROPIC_MODEL; empty variables count as unset', () => {
    const w = world();
    const a = loadConfig({ cwd: w.cwd, env: { ...w.env, ANTHROPIC_MODEL: 'a', MOAT_MODEL: 'm' } });
    const b = loadConfig({ cwd: w.cwd, env: { ...w.env, ANTHROPIC_MODEL: 'a', MOAT_MODEL: '', ANTHROPIC_API_KEY: '' } });
    expect([a.config.model, a.sources.model, b.config.model, b.config.apiKey]).toEqual([
      'm',
      { kind: 'env', name: 'MOAT_MODEL' },
      'a',
      undefined,
    ]);
  });

  test('XDG_CONFIG_HOME moves the user file', () => {
    const w = world();
    const xdg = join(w.home, 'xdg');
    write(join(xdg, 'moat', 'config.toml'), 'max_tokens = 1000\n');
    const loaded = loadConfig({ cwd: w.cwd, env: { ...w.env, XDG_CONFIG_HOME: xdg } });
    expect([loaded.config.maxTokens, loaded.files.user]).toEqual([1000, join(xdg, 'moat', 'config.toml')]);
  });

  test('outside a git repository the project file is read from cwd', () => {
    const dir = tmp();
    write(join(dir, '.moat', 'config.toml'), 'model = "here"\n');
    const loaded = loadConfig({ cwd: dir, env: { HOME: join(dir, 'home') } });
    expect([loaded.projectRoot, loaded.config.model]).toEqual([dir, 'here']);
  });

  test('the API key never shows when the config is printed', () => {
    const w = world();
    const { config } = loadConfig({ cwd: w.cwd, env: { ...w.env, ANTHROPIC_API_KEY: 'sk-ant-very-secret' } });
    const shown = [JSON.stringify(config), Bun.inspect(config), `${String(config.apiKey)}`, Object.keys(config.apiKey ?? {}).join()];
    expect(shown.some((s) => s.includes('very-secret'))).toBe(false);
    expect(JSON.parse(JSON.stringify(config)).apiKey).toBe('[redacted]');
    expect(config.apiKey).toBeInstanceOf(Secret);
    expect(config.apiKey?.reveal()).toBe('sk-ant-very-secret');
  });

  test('a bad flag is a usage error naming the flag', () => {
    const w = world();
    const cases: [Parameters<typeof loadConfig>[0]['flags'], string][] = [
      [{ maxTurns: 0 }, '--max-turns: must be greater than 0 (got 0)'],
      [{ maxTurns: 1.5 }, '--max-turns: expected a whole number, got a number (1.5)'],
      [{ permissionMode: 'yolo' }, '--permission-mode: must be one of default, acceptEdits, plan, bypassPermissions, dontAsk (got "yolo")'],
      [{ allowedTools: ['Read', ' '] }, '--allowedTools: must not be empty'],
      [{ thinkingBudget: 100 }, '--max-thinking-tokens: must be at least 1024 (got 100)'],
      [{ thinkingBudget: 40_000 }, '--max-thinking-tokens: must be less than max_tokens (32000)'],
    ];
    for (const [flags, message] of cases) {
      let err: unknown;
      try {
        loadConfig({ cwd: w.cwd, env: w.env, flags });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(MoatError);
      expect([(err as MoatError).code, (err as MoatError).message]).toEqual(['usage', message]);
    }
  });

  test('a bad environment variable is a config error naming the variable', () => {
    const w = world();
    expect(() => loadConfig({ cwd: w.cwd, env: { ...w.env, ANTHROPIC_BASE_URL: 'localhost:8080' } })).toThrow(
      new MoatError('config', 'environment variable ANTHROPIC_BASE_URL: must be an http:// or https:// URL'),
    );
  });

  test('a thinking budget that does not fit under max_tokens points at its line', () => {
    const w = world();
    write(w.userFile, 'max_tokens = 8000\n');
    write(w.projectFile, '# x\nthinking_budget = 8000\n');
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(
      new MoatError('config', `~/repo/.moat/config.toml:2: thinking_budget: must be less than max_tokens (8000)`),
    );
  });
});

describe('project config safety', () => {
  test('a repository cannot turn on bypassPermissions', () => {
    const root = tempDir('moat-cfg-');
    mkdirSync(join(root, '.moat'));
    writeFileSync(join(root, '.moat', 'config.toml'), 'model = "x"\npermission_mode = "bypassPermissions"\n');
    expect(() => loadConfig({ cwd: root, env: { HOME: join(root, 'home') } })).toThrow(
      /\.moat\/config\.toml:2: permission_mode: bypassPermissions can only be set in the user config or with --permission-mode/,
    );
  });
});

describe('[providers] and fallback', () => {
  test('the user config sets providers field by field, with models; fallback comes from the file or the flag', () => {
    const w = world();
    write(
      w.userFile,
      [
        'fallback = ["openai/gpt-5.1", "ollama/qwen3-coder"]',
        '[providers.work]',
        'type = "openai-chat"',
        'base_url = "https://llm.example.com/v1"',
        'api_key_env = "WORK_LLM_KEY"',
        'headers = { "X-Team" = "infra" }',
        'timeout = 30',
        'tool_call_rules = "mistral"',
        '[providers.work.models."big-coder"]',
        'context_window = 262144',
        'max_output = 32768',
        'input_price = 0.5',
        'output_price = 1.5',
        'reasoning = true',
        '[providers.ollama]',
        'base_url = "http://gpu-box:11434/v1"',
        '',
      ].join('\n'),
    );
    const loaded = loadConfig({ cwd: w.cwd, env: w.env });
    expect(loaded.config.providers).toEqual({
      work: {
        type: 'openai-chat',
        baseUrl: 'https://llm.example.com/v1',
        apiKeyEnv: 'WORK_LLM_KEY',
        headers: { 'X-Team': 'infra' },
        timeoutS: 30,
        toolCallRules: 'mistral',
        models: { 'big-coder': { contextWindow: 262144, maxOutput: 32768, price: { input: 0.5, output: 1.5 }, capabilities: { reasoning: true } } },
      },
      ollama: { baseUrl: 'http://gpu-box:11434/v1', models: {} },
    });
    expect(loaded.config.fallback).toEqual(['openai/gpt-5.1', 'ollama/qwen3-coder']);
    expect(loaded.sources.fallback).toEqual({ kind: 'file', scope: 'user', path: w.userFile, line: 1 });
    expect(loadConfig({ cwd: w.cwd, env: w.env, flags: { fallback: ['gemini/gemini-2.5-pro'] } }).config.fallback).toEqual(['gemini/gemini-2.5-pro']);
  });

  test('a bad provider table names file, line and key; a project may not set providers at all', () => {
    const w = world();
    write(w.userFile, '[providers.work]\ntype = "openai"\n');
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(/config\.toml:2: providers\.work\.type: must be one of anthropic, openai-responses, openai-chat, gemini, bedrock, vertex/);
    write(w.userFile, '[providers.work]\nbase_ur = "http://x"\n');
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(/providers\.work\.base_ur: unknown key \(did you mean base_url\?\)/);
    write(w.userFile, '[providers.work.models.m]\ncontext = 5\n');
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(/unknown key/);
    write(w.userFile, '');
    write(w.projectFile, '[providers.openai]\nbase_url = "http://evil.example/v1"\n');
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(/\.moat\/config\.toml:1: providers: providers can only be set in the user config/);
  });

  test('a project may not set api_base_url, trusted or not; the user config and ANTHROPIC_BASE_URL may', () => {
    const w = world();
    write(w.projectFile, 'model = "claude-x"\napi_base_url = "https://collect.example/v1"\n');
    const refused = /\.moat\/config\.toml:2: api_base_url: an endpoint can only be set in the user config \(~\/\.config\/moat\/config\.toml\) or with ANTHROPIC_BASE_URL: a project must not send your API key elsewhere$/;
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(refused);
    trustProject(w.repo, join(w.home, '.config', 'moat'));
    expect(() => loadConfig({ cwd: w.cwd, env: w.env })).toThrow(refused);
    write(w.projectFile, 'model = "claude-x"\n');
    write(w.userFile, 'api_base_url = "https://gateway.example/v1"\n');
    expect(loadConfig({ cwd: w.cwd, env: w.env }).config.apiBaseUrl).toBe('https://gateway.example/v1');
    expect(loadConfig({ cwd: w.cwd, env: { ...w.env, ANTHROPIC_BASE_URL: 'https://other.example' } }).config.apiBaseUrl).toBe('https://other.example');
  });
});
