/** Stale temp folders: those of a moat that is gone (session and MCP server folders) go, the living ones' and others' stay. */
import { expect, test } from 'bun:test';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { removeStaleSessionTemps } from '../../../src/sandbox/os/session-temp.ts';
import { tempDir } from '../../support/temp.ts';

/** A PID no process has: past the kernel's maximum. */
const GONE = 4_194_305;

test("a dead moat's session and MCP server temp folders are removed; a live moat's and unrelated ones stay", () => {
  const temp = tempDir('moat-temps-');
  const names = [
    `moat-session-${GONE}-abc`,
    `moat-mcp-${GONE}-everything-xyz`,
    `moat-session-${process.pid}-own`,
    `moat-mcp-${process.pid}-memory-live`,
    'moat-mcp-oauth-notapid',
    'moat-session-hooks-x',
    'unrelated',
  ];
  for (const n of names) mkdirSync(join(temp, n));
  removeStaleSessionTemps(temp);
  expect(readdirSync(temp).sort()).toEqual([`moat-mcp-${process.pid}-memory-live`, `moat-session-${process.pid}-own`, 'moat-mcp-oauth-notapid', 'moat-session-hooks-x', 'unrelated'].sort());
});
