import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeRecord } from '../../src/config/index.ts';
import { tempDir } from '../support/temp.ts';

/** A ~/.claude.json padded with other projects' history so `at` bytes come before the part under test. */
function padded(at: number, tail: string): string {
  const head = '{"projects": {"/other": {"history": [{"display": "';
  const filler = 'x'.repeat(Math.max(0, at - head.length));
  return `${head}${filler}"}], "mcpServers": {}}, ${tail}}}`;
}

const CHUNK = 256 * 1024;

describe("claudeRecord (~/.claude.json, read once per process)", () => {
  test("this folder's entry and the user's servers, wherever a chunk of the scan ends", () => {
    // Keys cut by the scan's chunk boundary at every offset around it: still found.
    for (const shift of [-40, -13, -5, -1, 0, 1, 7, 30]) {
      const home = tempDir('claude-record-');
      const project = join(home, 'some project');
      const entry = `${JSON.stringify(project)}: {"hasTrustDialogAccepted": true}`;
      writeFileSync(join(home, '.claude.json'), padded(CHUNK + shift, entry));
      expect((claudeRecord(home, project).project(project) as { hasTrustDialogAccepted: boolean }).hasTrustDialogAccepted).toBe(true);
    }
    for (const shift of [-20, -12, -3, 0, 2, 11]) {
      const home = tempDir('claude-record-');
      // Top-level servers after a history that ends near the chunk boundary.
      const text = `{"projects": {"/other": {"history": "${'y'.repeat(CHUNK + shift - 40)}", "mcpServers": {}}}, "mcpServers": {"gh": {"command": "gh-mcp"}}}`;
      writeFileSync(join(home, '.claude.json'), text);
      expect(claudeRecord(home, join(home, 'elsewhere')).mcpServers).toEqual({ gh: { command: 'gh-mcp' } });
    }
  });

  test('a file that names neither a server nor this folder is not parsed: a broken one says nothing; broken where it matters, it says so', () => {
    const home = tempDir('claude-record-');
    writeFileSync(join(home, '.claude.json'), `{"projects": {"/other": {"mcpServers": {}, "history": [ broken`);
    const quiet = claudeRecord(home, join(home, 'p'));
    expect(quiet).toMatchObject({ exists: true, mcpServers: undefined });
    expect(quiet.error).toBeUndefined();
    writeFileSync(join(home, '.claude.json'), `{"mcpServers": {"x": {"command": "x"}}, broken`);
    expect(claudeRecord(home, join(home, 'p')).error).toMatch(/^not valid JSON: /);
  });

  test('"mcpServers" inside a string or with only whitespace inside its braces does not count; a change of the file is seen', () => {
    const home = tempDir('claude-record-');
    const file = join(home, '.claude.json');
    writeFileSync(file, `{"note": "the \\"mcpServers\\" key", "projects": {"/a": {"mcpServers": {\n  }}}, bad`);
    expect(claudeRecord(home, join(home, 'p')).error).toBeUndefined();
    writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: 's' } } }));
    expect(claudeRecord(home, join(home, 'p')).mcpServers).toEqual({ s: { command: 's' } });
    expect(claudeRecord(join(home, 'none'), join(home, 'p'))).toMatchObject({ exists: false });
  });
});
