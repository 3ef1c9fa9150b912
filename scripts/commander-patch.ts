/**
 * Build-time change to commander, the first library every command loads: its
 * lib/command.js and lib/help.js import `stripVTControlCharacters` from
 * node:util (Bun builds node:util and its inspect module for it: about 3 ms
 * before `-p`'s first request, measured on a build with and without), and
 * command.js imports node:child_process, which it uses only to run
 * executable subcommands (moat has none), node:process, which is the global
 * `process`, and node:events, for the three
 * EventEmitter methods a Command uses on itself (`on`, `emit`,
 * `listenerCount`: option values and help events). Nothing else that `-p`
 * loads before its first request imports node:events, whose module costs
 * ~1.8 ms to load and ~0.5 ms to first use on the 2-core machine. The patched
 * modules strip escape sequences with Bun.stripANSI, ask for
 * node:child_process when a subcommand is run, and give Command a base class
 * with those three methods, with EventEmitter's order and return values.
 * lib/option.js tells a variadic option (`<dirs...>`) by a regular
 * expression with `\p{ID_Continue}`, whose first match builds that Unicode
 * class (~1.3 ms in -p's CPU profile, for an option that has no `...` at
 * all): the patched one asks it only of flags that hold `...`.
 * Kept because dropping it was measured to cost more than the 2 ms bar: 12
 * interleaved `-p` runs, main-thread CPU before the first request 103.5 ms
 * without it against 98.6 ms with it (peak RSS 54.6 vs 53.6 MB). commander
 * is pinned exactly in package.json, so the patched text cannot move under it.
 * test/cli/commander-patch.test.ts checks that the patch applies, compares
 * Bun.stripANSI with node:util's function, and parses and prints help with
 * a patched copy of commander as with the original.
 */

const UTIL_IMPORT = "import { stripVTControlCharacters } from 'node:util';";
const CHILD_PROCESS_IMPORT = "import childProcess from 'node:child_process';";
const EVENTS_IMPORT = "import { EventEmitter } from 'node:events';";
/** The module is the global `process` itself; importing it costs ~0.3 ms. */
const PROCESS_IMPORT = "import process from 'node:process';";

/** What Command needs of EventEmitter: listeners per event, called in the order added with the emitter as `this`; emit says whether there were any. */
const EMITTER = [
  'class EventEmitter {',
  '  #listeners = new Map();',
  '  on(event, listener) { const list = this.#listeners.get(event); if (list === undefined) this.#listeners.set(event, [listener]); else list.push(listener); return this; }',
  '  addListener(event, listener) { return this.on(event, listener); }',
  '  emit(event, ...args) { const list = this.#listeners.get(event); if (list === undefined) return false; for (const listener of [...list]) listener.apply(this, args); return true; }',
  '  listenerCount(event) { return this.#listeners.get(event)?.length ?? 0; }',
  '}',
].join('\n');

const VARIADIC_TEST = 'this.variadic = /\\p{ID_Continue}\\.\\.\\.[>\\]]$/u.test(flags);';

/** commander's `file` without the imports above (option.js: with the cheap variadic check); throws when it no longer has them. */
export function patchCommander(source: string, file: 'command.js' | 'help.js' | 'option.js'): string {
  if (file === 'option.js') {
    if (source.split(VARIADIC_TEST).length !== 2) throw new Error('commander changed: scripts/commander-patch.ts no longer finds the variadic check in lib/option.js');
    return source.replace(VARIADIC_TEST, VARIADIC_TEST.replace('this.variadic = ', "this.variadic = flags.includes('...') && "));
  }
  if (
    source.split(UTIL_IMPORT).length !== 2 ||
    (file === 'command.js') !== source.includes(CHILD_PROCESS_IMPORT) ||
    (file === 'command.js') !== source.includes(EVENTS_IMPORT) ||
    (file === 'command.js') !== source.includes(PROCESS_IMPORT)
  ) {
    throw new Error(`commander changed: scripts/commander-patch.ts no longer finds the imports it replaces in lib/${file}`);
  }
  return source
    .replace(UTIL_IMPORT, 'const stripVTControlCharacters = (text) => Bun.stripANSI(text);')
    .replace(CHILD_PROCESS_IMPORT, "const childProcess = { spawn: (...args) => process.getBuiltinModule('node:child_process').spawn(...args) };")
    .replace(EVENTS_IMPORT, EMITTER)
    .replace(PROCESS_IMPORT, '');
}

/** The Bun plugin for scripts/build.ts. */
export const commanderPlugin: Bun.BunPlugin = {
  name: 'moat-commander',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/](command|help|option)\.js$/ }, async (a) => ({
      loader: 'js',
      contents: patchCommander(await Bun.file(a.path).text(), a.path.endsWith('help.js') ? 'help.js' : a.path.endsWith('option.js') ? 'option.js' : 'command.js'),
    }));
  },
};
