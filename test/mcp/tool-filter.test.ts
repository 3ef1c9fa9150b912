/** enabled_tools and disabled_tools: from the TOML table to the tools offered, also after the server's list changes. */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadServers } from '../../src/mcp/index.ts';
import { tempDir } from '../support/temp.ts';
import { manager, parsedFiles, toolContext } from './support.ts';

const FIXTURE = resolve(import.meta.dir, 'fixtures/hostile-server.ts');

/** The servers of a user config.toml with these `[mcp_servers.lc]` lines, run by the list-changed fixture. */
function fromToml(lines: string) {
  const home = tempDir('moat-mcp-filter-');
  const file = join(home, '.config/moat/config.toml');
  mkdirSync(join(home, '.config/moat'), { recursive: true });
  writeFileSync(file, `[mcp_servers.lc]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([FIXTURE, 'list-changed'])}\n${lines}\n`);
  const r = loadServers({ cwd: home, projectRoot: home, env: { HOME: home }, userConfigFile: file, projectConfigFile: file, parsedFiles: parsedFiles(file, file) });
  expect(r.problems).toEqual([]);
  return r.servers;
}

describe('enabled_tools / disabled_tools', () => {
  test('enabled_tools offers only those; a tool the server adds later is offered only when listed', async () => {
    const m = manager(fromToml('enabled_tools = ["grow", "grown2"]'));
    try {
      m.startAll();
      await m.settled();
      const names = () => m.tools().map((t) => t.name).filter((n) => n.startsWith('mcp__'));
      expect(names()).toEqual(['mcp__lc__grow']);
      await m.tools().find((t) => t.name === 'mcp__lc__grow')?.execute({}, toolContext());
      expect(names()).toEqual(['mcp__lc__grow', 'mcp__lc__grown2']);
      expect(m.status()[0]?.tools).toEqual(['grow', 'grown2']);
    } finally {
      await m.close();
    }
  });

  test('disabled_tools hides those, also from a server that names them later; with both, disabled wins', async () => {
    const m = manager(fromToml('enabled_tools = ["grow", "ok"]\ndisabled_tools = ["ok", "grown2"]'));
    const all = manager(fromToml('disabled_tools = ["ok", "grown2"]'));
    try {
      for (const x of [m, all]) x.startAll();
      await Promise.all([m.settled(), all.settled()]);
      expect(m.status()[0]?.tools).toEqual(['grow']);
      await all.tools().find((t) => t.name === 'mcp__lc__grow')?.execute({}, toolContext());
      expect(all.status()[0]?.tools).toEqual(['grow']);
      expect(all.tools().some((t) => t.name === 'mcp__lc__ok' || t.name === 'mcp__lc__grown2')).toBe(false);
    } finally {
      await m.close();
      await all.close();
    }
  });
});
