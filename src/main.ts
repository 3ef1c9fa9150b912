/** The executable's entry: the sandbox child, or the CLI. */
import './env-guard.ts';
import pkg from '../package.json' with { type: 'json' };

// The fast path: `--version` must not pay for parsing the rest of the program.
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // console.log, not process.stdout.write: touching process.stdout builds Node's stream (~15 ms, more than the rest of --version).
  console.log(`${pkg.version} (moat)`);
  process.exit(0);
}

// The sandbox's hard backstop re-executes this binary to run one untrusted tool call in a child it can SIGKILL.
if (argv[0] === '__sandbox-child') {
  // The module itself, not sandbox/index.ts: a folder's index imported with import() keeps all it re-exports in the chunks every run loads.
  // Imported statically, it cost `--version` 57 ms wall, 32 ms CPU and -p's first byte 2-11 ms wall, 4-8 ms CPU (scripts/bench/seam-paths.ts, 25-40 runs, load 4-7).
  const { runChildMain } = await import('./sandbox/child-main.ts');
  process.exit(await runChildMain(argv.slice(1)));
}

// An editor's terminal starting a Bash call moat prepared for its sandbox (cli/editor-terminal-bash.ts).
if (argv[0] === '__acp-terminal') {
  // Imported statically, it cost `--version` 51 ms wall, 28 ms CPU (-p's first byte 1-3 ms CPU; seam-paths.ts, 25-40 runs, load 4-7).
  const { runTerminalLaunch } = await import('./cli/acp-terminal-launch.ts');
  process.exit(await runTerminalLaunch(argv.slice(1)));
}

// Imported statically, the CLI cost `--version` 47 ms wall, 21 ms CPU (seam-paths.ts, 25 runs, load 4-7).
const { main } = await import('./cli/index.ts');
process.exit(await main(argv));
