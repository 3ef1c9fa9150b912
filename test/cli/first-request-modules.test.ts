/**
 * What the compiled `moat -p` loads before its first model request, read from
 * dist/moat itself: the entry's static imports, the CLI's (imported by the
 * entry), the root command's (imported by the CLI) and theirs. Code that only
 * a later step needs loads with that step and must stay out of this set: every
 * kilobyte in it is start-up time (~25 µs each on the 2-core machine, by the
 * 42 KB cron parser and cron folder). A folder's index.ts that some module
 * imports with `import()` used to keep everything it re-exports in the chunks
 * its static importers load (the cron parser came in that way).
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { readCompiledGraph, type CompiledModule } from '../support/compiled-modules.ts';
import { MOAT_BIN } from '../support/run-moat.ts';

/** Code that must not load before the first request, by a mark of its own in the compiled chunks. */
const LATER: { what: string; mark: RegExp }[] = [
  { what: 'the permission engine (loads on the first permission check)', mark: /function decidePermission\d*\(/ },
  { what: 'bash deny matching (the permission engine)', mark: /function denyView\d*\(/ },
  { what: 'the cron parser, croner (loads with the first scheduled job)', mark: /Invalid ISO8601 passed to timezone parser\./ },
  { what: "--json-schema's validator, Ajv (loads only for a run given a schema)", mark: /class Ajv\d*\b/ },
  { what: 'the sub-agent runner and worktrees (load with the first sub-agent)', mark: /function createWorktree\d*\(/ },
  { what: "the WebAssembly tools' help parser (loads with the first component whose spec is not cached)", mark: /function parseHelp\d*\(/ },
  { what: 'Ink (loaded by the interactive command only)', mark: /class Ink\d*\s*{/ },
  { what: "the TUI's components", mark: /createElement\(Box/ },
  { what: "the built-in tools' calls (each loads with its first call)", mark: /async function executeRead\d*\(/ },
  { what: "jsdiff (an edit's patch is made by the edit's own call)", mark: /function makePatch\d*\(/ },
  { what: 'the tool-running half of the loop (loads once the first request is on its way)', mark: /async function dispatchToolCalls\d*\(/ },
  { what: 'the mapping to json lines (json and stream-json only)', mark: /class OutputMapper\d*\b/ },
  { what: "MCP's connections (load when a server starts)", mark: /class McpConnection\d*\b/ },
  { what: "MCP's server loader (runs only where servers may be configured)", mark: /function loadServers\d*\(/ },
  { what: "path rules' matchers, the ignore package (built on a rule's first match)", mark: /function relativePathMatches\d*\(/ },
  { what: 'the shell grammar reader (the first Bash permission check)', mark: /function readCommandLine\d*\(/ },
  { what: "one process's sandbox grants (the first command or hook)", mark: /function processGrants\d*\(/ },
  { what: 'the hook command runner (the first command hook)', mark: /async function runHookProcess\d*\(/ },
  { what: 'a WebAssembly tool call (its first call)', mark: /async function runWasmCall\d*\(/ },
  { what: "the Task tool's call (the first sub-agent)", mark: /async function runTaskCall\d*\(/ },
  { what: 'the subcommands and the full help (a command line naming one)', mark: /function buildProgram\d*\(/ },
  { what: 'zod (loads with the first schema built: scripts/lazy-zod.ts)', mark: /\$constructor\("\$ZodString"/ },
  { what: "the store's code (loads when the database opens)", mark: /class SessionRepo\d*\b/ },
];

describe('what -p loads before its first request (dist/moat)', () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  const graph = readCompiledGraph(readFileSync(MOAT_BIN));
  if (graph === undefined) throw new Error('dist/moat: this Bun writes its module graph in a format test/support/compiled-modules.ts does not read');
  const js = new Map<string, CompiledModule>(graph.modules.filter((m) => m.name.endsWith('.js') || m.name.endsWith('/moat')).map((m) => [m.name, m]));
  const transpiler = new Bun.Transpiler({ loader: 'js' });
  const text = (m: CompiledModule) => m.contents.toString('utf8');

  /** The modules `from` loads before it runs: itself and its static imports, transitively. */
  function staticClosure(from: string, into = new Set<string>()): Set<string> {
    if (into.has(from)) return into;
    into.add(from);
    const m = js.get(from);
    if (m === undefined) throw new Error(`${from} is imported but not embedded`);
    for (const imp of transpiler.scanImports(text(m))) if (imp.kind === 'import-statement' && js.has(imp.path)) staticClosure(imp.path, into);
    return into;
  }
  /** The one chunk that defines `mark`. */
  function chunkWith(mark: RegExp): string {
    const found = [...js.values()].filter((m) => mark.test(text(m)));
    if (found.length !== 1) throw new Error(`${found.length} chunks match ${mark}`);
    return (found[0] as CompiledModule).name;
  }

  const entry = [...js.keys()].find((n) => n.endsWith('/moat'));
  if (entry === undefined) throw new Error('no entry module in dist/moat');
  const loaded = staticClosure(entry);
  staticClosure(chunkWith(/async function main\(argv/), loaded);
  staticClosure(chunkWith(/async function rootCommand\(/), loaded);

  test('the set stays small: under 400 KB of chunks (931 KB before the permission engine, the cron parser and zod\'s fromJSONSchema left it, 747 KB before the tools\' calls, MCP, zod and the rest above)', () => {
    const bytes = [...loaded].reduce((n, name) => n + (js.get(name)?.contents.length ?? 0), 0);
    expect(loaded.size).toBeGreaterThan(10);
    // 358 KB when this test was last changed.
    expect(bytes).toBeLessThan(400_000);
  });

  for (const { what, mark } of LATER) {
    test(`leaves out ${what}`, () => {
      // The mark must be in the binary at all, or this test could not fail.
      expect([...js.values()].some((m) => mark.test(text(m)))).toBe(true);
      expect([...loaded].filter((name) => mark.test(text(js.get(name) as CompiledModule)))).toEqual([]);
    });
  }
});
