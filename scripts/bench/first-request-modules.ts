/**
 * A guard that prints, not a test: what the compiled `moat -p` loads before
 * its first model request, read from dist/moat's embedded module graph (the
 * entry's static imports, the CLI's, commander's command line's, the root
 * command's and theirs), its size, and which of the pieces meant to load
 * later are in it. It reads the binary's layout (chunk names, function
 * names), which any refactor may change, so it informs a change rather than
 * failing one; the time a piece costs is what scripts/bench/startup.ts
 * measures. Exits non-zero only when the binary cannot be read.
 *
 * Run: bun run build && bun run scripts/bench/first-request-modules.ts   (BIN=<path> for another binary)
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readCompiledGraph, type CompiledModule } from './compiled-modules.ts';

const BIN = resolve(process.env.BIN ?? join(import.meta.dir, '../../dist/moat'));
/** The size the set was kept under while it was a unit test (358 KB then). */
const BUDGET = 400_000;

/** Code meant to load after the first request, by a mark of its own in the compiled chunks. */
const LATER: { what: string; mark: RegExp }[] = [
  { what: 'the permission engine', mark: /function decidePermission\d*\(/ },
  { what: 'the cron parser, croner', mark: /Invalid ISO8601 passed to timezone parser\./ },
  { what: "--json-schema's validator, Ajv", mark: /class Ajv\d*\b/ },
  { what: 'the sub-agent runner and worktrees', mark: /function createWorktree\d*\(/ },
  { what: 'Ink', mark: /class Ink\d*\s*{/ },
  { what: "the built-in tools' calls", mark: /async function executeRead\d*\(/ },
  { what: 'the tool-running half of the loop', mark: /async function dispatchToolCalls\d*\(/ },
  { what: "MCP's connections", mark: /class McpConnection\d*\b/ },
  { what: 'the shell grammar reader', mark: /function readCommandLine\d*\(/ },
  { what: 'the subcommands and the full help', mark: /function buildProgram\d*\(/ },
  { what: 'zod', mark: /\$constructor\("\$ZodString"/ },
  { what: "the store's code", mark: /class SessionRepo\d*\b/ },
];

if (!existsSync(BIN)) {
  console.error(`${BIN} is missing: run \`bun run build\` first`);
  process.exit(1);
}
const graph = readCompiledGraph(readFileSync(BIN));
if (graph === undefined) {
  console.error(`${BIN}: this Bun writes its module graph in a format compiled-modules.ts does not read`);
  process.exit(1);
}
const js = new Map<string, CompiledModule>(graph.modules.filter((m) => m.name.endsWith('.js') || m.name.endsWith('/moat')).map((m) => [m.name, m]));
const transpiler = new Bun.Transpiler({ loader: 'js' });
const text = (m: CompiledModule) => m.contents.toString('utf8');

/** The modules `from` loads before it runs: itself and its static imports, transitively. */
function staticClosure(from: string, into = new Set<string>()): Set<string> {
  if (into.has(from)) return into;
  into.add(from);
  const m = js.get(from);
  if (m === undefined) return into;
  for (const imp of transpiler.scanImports(text(m))) if (imp.kind === 'import-statement' && js.has(imp.path)) staticClosure(imp.path, into);
  return into;
}
const chunksWith = (mark: RegExp) => [...js.values()].filter((m) => mark.test(text(m))).map((m) => m.name);

const entry = [...js.keys()].find((n) => n.endsWith('/moat'));
const loaded = new Set<string>();
for (const root of [entry, ...chunksWith(/async function main\(argv/), ...chunksWith(/async function runCommandLine\(/), ...chunksWith(/async function rootCommand\(/)]) if (root !== undefined) staticClosure(root, loaded);
const bytes = [...loaded].reduce((n, name) => n + (js.get(name)?.contents.length ?? 0), 0);
console.log(`-p loads ${loaded.size} chunks before its first request: ${(bytes / 1000).toFixed(0)} KB (kept under ${BUDGET / 1000} KB: ${bytes <= BUDGET ? 'yes' : 'NO'})`);
for (const { what, mark } of LATER) {
  const where = chunksWith(mark);
  const early = where.filter((n) => loaded.has(n));
  console.log(`  ${where.length === 0 ? '?  not found in the binary' : early.length > 0 ? 'IN the first-request set' : 'later'}: ${what}`);
}
