/**
 * json_query against the official JSONPath Compliance Test Suite (RFC 9535):
 * every case of cts.json as shipped in the npm package jsonpath-rfc9535 (a
 * pinned devDependency, so the count below only moves when we move it). Each
 * case runs the real tool, natively built from the same sources as the wasm
 * component, with the document and selector passed as the host passes them
 * (text with U+0000 goes on stdin: src/tools/wasm/stdin-args.ts). Checked:
 * invalid selectors fail with one clear line; valid ones give the expected
 * nodelist (or one of the allowed orderings) and the normalized paths.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { moveArgsToStdin } from '../../../src/tools/wasm/stdin-args.ts';
import { buildNative, TOOLS_DIR } from './native.ts';

interface CtsCase {
  name: string;
  selector: string;
  document?: unknown;
  result?: unknown[];
  results?: unknown[][];
  result_paths?: string[];
  results_paths?: string[][];
  invalid_selector?: boolean;
}

const PACKAGE = 'jsonpath-rfc9535';
// The package's exports map hides src/, so locate the file from its package.json.
const CTS_FILE = join(dirname(createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`)), 'src/__tests__/jsonpath-compliance-test-suite/cts.json');
const CASES = (JSON.parse(readFileSync(CTS_FILE, 'utf8')) as { tests: CtsCase[] }).tests;
const BINARY = join(TOOLS_DIR, 'target', 'debug', 'json_query');
/** The tool lists at most this many paths in its metadata (MAX_PATHS in main.rs). */
const MAX_PATHS = 100;
/** Cases the tool is known to fail, by name, each with the reason. None at present. */
const EXPECTED_FAILURES = new Map<string, string>();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function runTool(args: string[]): Promise<Run> {
  const { argv, stdin } = moveArgsToStdin(args);
  const proc = Bun.spawn([BINARY, ...argv], { stdin: stdin ?? 'ignore', stdout: 'pipe', stderr: 'pipe', env: { PATH: '/usr/bin:/bin' } });
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code, stdout, stderr };
}

/** Why a case failed, or undefined when it passed. */
async function check(c: CtsCase): Promise<string | undefined> {
  // `--` so that a selector starting with '-' can never be read as an option.
  const r = await runTool(['--json', JSON.stringify(c.document ?? null), '--', c.selector]);
  if (c.invalid_selector) {
    if (r.code !== 1) return `accepted an invalid selector (exit ${r.code}): ${r.stdout.trim()}`;
    if (!/^error: invalid JSONPath at position \d+: [^\n]+\n$/.test(r.stderr)) return `unclear error: ${JSON.stringify(r.stderr)}`;
    return undefined;
  }
  if (r.code !== 0) return `failed (exit ${r.code}): ${r.stderr.trim()}`;
  const envelope = JSON.parse(r.stdout) as { content: string; metadata: { paths: string[] } };
  const got = JSON.parse(envelope.content) as unknown[];
  const allowed = c.results ?? [c.result ?? []];
  const which = allowed.findIndex((want) => Bun.deepEquals(got, want, true));
  if (which < 0) return `got ${envelope.content}, want ${allowed.map((a) => JSON.stringify(a)).join(' or ')}`;
  const wantPaths = c.results_paths?.[which] ?? c.result_paths;
  if (wantPaths && !Bun.deepEquals(envelope.metadata.paths, wantPaths.slice(0, MAX_PATHS))) {
    return `paths ${JSON.stringify(envelope.metadata.paths)}, want ${JSON.stringify(wantPaths)}`;
  }
  return undefined;
}

beforeAll(buildNative, 120_000);

describe('json_query: JSONPath Compliance Test Suite', () => {
  test(
    `all ${CASES.length} cases of ${PACKAGE}'s cts.json`,
    async () => {
      const failures = new Map<string, string>();
      // A few processes at a time: each case is a separate run of the tool.
      let next = 0;
      const worker = async () => {
        while (next < CASES.length) {
          const c = CASES[next++];
          if (!c) break;
          const why = await check(c);
          if (why !== undefined) failures.set(c.name, `${JSON.stringify(c.selector)}: ${why}`);
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      const passed = CASES.length - failures.size;
      console.log(`JSONPath CTS: ${passed} of ${CASES.length} cases pass`);
      const unexpected = [...failures].filter(([name]) => !EXPECTED_FAILURES.has(name));
      expect(unexpected.map(([name, why]) => `${name}: ${why}`)).toEqual([]);
      // An expected failure that now passes should come off the list.
      expect([...EXPECTED_FAILURES.keys()].filter((name) => !failures.has(name))).toEqual([]);
    },
    120_000,
  );
});
