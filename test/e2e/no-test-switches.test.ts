/**
 * dist/moat has no environment variable that weakens a boundary: every
 * MOAT_* name in the binary is one of the reviewed ones below, and none is a
 * test switch. The test build (dist/moat-test) does have its switches, which
 * shows the search finds them when they are there.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { MOAT_BIN, MOAT_TEST_BIN } from '../support/run-moat.ts';

/** Each read by the shipped binary, and why it is harmless. */
const REVIEWED: Record<string, string> = {
  MOAT_MODEL: 'the model to use (like ANTHROPIC_MODEL)',
};

function moatNames(file: string): string[] {
  const text = readFileSync(file).toString('latin1');
  return [...new Set(text.match(/MOAT_[A-Z0-9_]+/g) ?? [])].sort();
}

test('dist/moat reads no MOAT_* variable but the reviewed ones, and no test switch', () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  const names = moatNames(MOAT_BIN);
  expect(names.filter((n) => !(n in REVIEWED))).toEqual([]);
  expect(names.some((n) => n.startsWith('MOAT_TEST'))).toBe(false);
});

test('the test build carries its switches (the search is not blind)', () => {
  if (!existsSync(MOAT_TEST_BIN)) throw new Error('dist/moat-test is missing: run `bun run build` first');
  expect(moatNames(MOAT_TEST_BIN)).toEqual(expect.arrayContaining(['MOAT_TEST_ALLOW_PRIVATE_NETWORK', 'MOAT_TEST_CRASH', 'MOAT_TEST_RETRY_BASE_MS']));
});
