// Provider keys are scrubbed from sandboxed processes even when the user replaces [sandbox] scrub_env.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { sandboxSettingsFrom } from '../../../src/cli/os-sandbox-setup.ts';
import { loadConfig } from '../../../src/config/index.ts';
import { prepareCommand } from '../../../src/sandbox/index.ts';
import { processGrants } from '../../../src/tools/index.ts';
import { useTmp, write } from '../../config/tmp.ts';

const tmp = useTmp();

describe('provider keys in a sandboxed environment', () => {
  test('a custom api_key_env and the built-in providers\' variables are removed whatever scrub_env says', async () => {
    const root = tmp();
    const home = join(root, 'home');
    const repo = join(root, 'repo');
    write(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    write(
      join(home, '.config', 'moat', 'config.toml'),
      ['[sandbox]', 'mode = "off"', 'scrub_env = ["ONLY_THIS"]', '', '[providers.work]', 'type = "openai-chat"', 'base_url = "https://llm.example.com/v1"', 'api_key_env = "WORK_LLM_KEY"', ''].join('\n'),
    );
    const loaded = loadConfig({ cwd: repo, env: { HOME: home } });
    const settings = sandboxSettingsFrom(loaded, { allow: [], deny: [] }, home, { HOME: home });
    expect(settings.scrubEnv).toEqual(expect.arrayContaining(['ONLY_THIS', 'WORK_LLM_KEY', 'OPENROUTER_API_KEY', 'DEEPSEEK_API_KEY', 'GOOGLE_API_KEY']));
    const env = { PATH: '/usr/bin', WORK_LLM_KEY: 'w', OPENROUTER_API_KEY: 'o', MISTRAL_API_KEY: 'm', ONLY_THIS: 'x', GITHUB_TOKEN: 'kept: the user replaced the patterns' };
    const p = await prepareCommand(['true'], { cwd: repo, env, grants: processGrants('read-only', settings, [repo]), mode: settings.mode, scrubEnv: settings.scrubEnv });
    // TMPDIR: the session's private temp folder, even unsandboxed.
    expect(p.env).toEqual({ PATH: '/usr/bin', GITHUB_TOKEN: 'kept: the user replaced the patterns', TMPDIR: expect.stringMatching(/\/moat-session-\d+-/) });
  });
});
