/**
 * Build-time change to commander, the first library every command loads: its
 * lib/command.js and lib/help.js import `stripVTControlCharacters` from
 * node:util (Bun builds node:util and its inspect module for it: about 3 ms
 * before `-p`'s first request, measured on a build with and without), and
 * command.js imports node:child_process, which it uses only to run
 * executable subcommands (moat has none). The patched modules strip escape
 * sequences with Bun.stripANSI and ask for node:child_process when a
 * subcommand is run. test/cli/commander-patch.test.ts checks that the
 * patch applies and compares Bun.stripANSI with node:util's function.
 */

const UTIL_IMPORT = "import { stripVTControlCharacters } from 'node:util';";
const CHILD_PROCESS_IMPORT = "import childProcess from 'node:child_process';";

/** commander's `file` (command.js or help.js) without the two imports; throws when it no longer has them. */
export function patchCommander(source: string, file: 'command.js' | 'help.js'): string {
  if (source.split(UTIL_IMPORT).length !== 2 || (file === 'command.js') !== source.includes(CHILD_PROCESS_IMPORT)) {
    throw new Error(`commander changed: scripts/commander-patch.ts no longer finds the imports it replaces in lib/${file}`);
  }
  return source
    .replace(UTIL_IMPORT, 'const stripVTControlCharacters = (text) => Bun.stripANSI(text);')
    .replace(CHILD_PROCESS_IMPORT, "const childProcess = { spawn: (...args) => process.getBuiltinModule('node:child_process').spawn(...args) };");
}

/** The Bun plugin for scripts/build.ts. */
export const commanderPlugin: Bun.BunPlugin = {
  name: 'moat-commander',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]commander[\\/]lib[\\/](command|help)\.js$/ }, async (a) => ({
      loader: 'js',
      contents: patchCommander(await Bun.file(a.path).text(), a.path.endsWith('help.js') ? 'help.js' : 'command.js'),
    }));
  },
};
