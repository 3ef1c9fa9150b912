/**
 * The compiled binary's interactive UI (tmux) with other providers: a
 * fallback shows as a notice and the answer comes from the next model;
 * `/model` completes names across providers and switches to one.
 */
import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpError, reply } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_TEST_BIN } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';
import { tuiSuite } from '../support/tui-suite.ts';

// The test build: the first model's five 529s are retried 20 ms apart, not over 15 s.
const suite = tuiSuite(MOAT_TEST_BIN);

test('a fallback is a notice in the transcript; /model completes across providers and switches', async () => {
  const sb = makeSandbox(suite.server.url);
  const configDir = join(sb.env.XDG_CONFIG_HOME!, 'moat');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    join(configDir, 'config.toml'),
    `fallback = ["ollama/qwen3-coder"]\n[providers.ollama]\nbase_url = "${suite.server.url}/v1"\n[providers.gemini]\nbase_url = "${suite.server.url}"\n`,
  );
  const env = { ...sb.env, GEMINI_API_KEY: 'g-fake' };
  delete (env as Record<string, string | undefined>).NO_COLOR;
  suite.server.script(...Array.from({ length: 5 }, () => httpError(529)), reply().text('answer from ollama'), reply().text('answer from gemini'));
  const s = new TmuxSession(`${MOAT_TEST_BIN}; echo "EXIT=$?"; sleep 60`, { cols: 110, rows: 30, cwd: sb.cwd, env });
  suite.track(s);
  await s.waitFor('Ask moat');
  await s.submit('hi', 'answer from ollama');
  expect(s.screen({ history: true })).toContain('switching to ollama/qwen3-coder');

  await s.typeAndWait('/model gem');
  await s.waitFor('gemini/gemini-2.5-pro');
  s.keys('Tab');
  await s.waitFor(/> \/model gemini\/gemini-\S+\s*$/m);
  s.keys('Enter');
  await s.waitFor(/Model set to gemini\/gemini-\S+\./);
  await s.waitFor(/gemini\/gemini-\S+ · work/);
  await s.submit('again', 'answer from gemini');
  expect(suite.server.requests.at(-1)?.path).toMatch(/^\/v1beta\/models\/gemini-[0-9a-z.-]+:streamGenerateContent$/);
}, 60_000);
