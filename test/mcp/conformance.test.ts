/**
 * The official MCP client conformance suite (@modelcontextprotocol/conformance)
 * against moat's MCP client, through the adapter in conformance/client.ts:
 * every client scenario passes except those in conformance/expected-failures.yml,
 * each of which is explained there and must still fail (so the list stays true).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { tempDir } from '../support/temp.ts';
import { NODE_MODULES } from './support.ts';

const CLI = resolve(NODE_MODULES, '@modelcontextprotocol/conformance/dist/index.js');
const ADAPTER = resolve(import.meta.dir, 'conformance/client.ts');
const EXPECTED = readFileSync(resolve(import.meta.dir, 'conformance/expected-failures.yml'), 'utf8')
  .split('\n')
  .map((l) => /^\s+-\s+(\S+)/.exec(l)?.[1])
  .filter((s): s is string => s !== undefined);

function suite(args: string[], cwd: string) {
  const r = Bun.spawnSync([process.execPath, CLI, ...args], { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { code: r.exitCode, out: r.stdout.toString().replace(/\x1b\[[0-9;]*m/g, '') + r.stderr.toString().replace(/\x1b\[[0-9;]*m/g, '') };
}

const listed = suite(['list'], process.cwd()).out;
const scenarios = (listed.split('Client scenarios')[1] ?? '')
  .split('\n')
  .map((l) => /^\s+-\s+(\S+)/.exec(l)?.[1])
  .filter((s): s is string => s !== undefined);

describe('MCP client conformance', () => {
  test('the suite lists the client scenarios, and every expected failure is one of them', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
    expect(EXPECTED.filter((s) => !scenarios.includes(s))).toEqual([]);
  });

  for (const scenario of scenarios) {
    const expectedToFail = EXPECTED.includes(scenario);
    test(`${scenario}${expectedToFail ? ' (expected to fail: see expected-failures.yml)' : ''}`, () => {
      const cwd = tempDir('moat-conformance-run-');
      const r = suite(['client', '--command', `${process.execPath} ${ADAPTER}`, '--scenario', scenario, '--timeout', '30000'], cwd);
      const passed = /OVERALL: PASSED/.test(r.out);
      if (passed === expectedToFail) throw new Error(`${scenario}: ${passed ? 'passes now: take it off expected-failures.yml' : 'failed'}\n${r.out.slice(-3000)}`);
      expect(/Passed: \d+\/\d+/.test(r.out)).toBe(true);
    }, 60_000);
  }
});
