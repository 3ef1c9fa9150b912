/**
 * The end of start-up, for JavaScriptCore's JIT. The executable starts with the
 * JIT's tier-up thresholds scaled up (scripts/build.ts, `jitPolicy`): most
 * start-up code runs once or a few hundred times, and compiling it keeps the
 * JIT threads busy on the cores start-up itself needs (measured on 2 cores:
 * `-p` read-then-answer 8 ms faster and 3.6 MB smaller). Once the TUI is
 * interactive it calls `startupOver`, and code that is hot from then on
 * (rendering, streaming, the tool loop) is compiled as usual; the CLI calls it
 * a second after start in any case.
 */

let over = false;

/**
 * `-p` and stream-json input hold the JIT back further, until that second has
 * passed: at ×8, building the command line (commander looks up every option
 * it registers among those before it) and zod's schema building still had a
 * few functions compiled before the first request, and a short run's answer
 * had the rest compiled (16 functions in a read-then-answer). The first compile
 * faults in the baseline JIT's own code (1.4 MB of the executable; 1–13 ms for
 * that compile on 2 busy cores), so a run that ends within the second never
 * pays for it and one that does not pays after its first request. ×64 is the
 * least that compiled nothing in read-then-answer against an instant server
 * (scripts/bench/startup.ts).
 */
const PRINT_SCALE = 64;

/**
 * Whether the command line runs `-p` (alone or among short flags: `-cp`) or
 * stream-json input (which implies it), read before commander builds the
 * program, since that is where the first compile happens (and where git's
 * status starts for such a run: src/cli/git-prefetch.ts). A guess, not a
 * parse: a wrong one changes only when the JIT starts compiling or git
 * starts, never what moat does.
 */
export function answersAndExits(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end < 0 ? argv : argv.slice(0, end);
  return flags.some(
    (a, i) => /^-[a-zA-Z]*p[a-zA-Z]*$/.test(a) || a === '--print' || a === '--input-format=stream-json' || (a === '--input-format' && flags[i + 1] === 'stream-json'),
  );
}

/** The start-up policy for this command line: the reluctant one for a run that answers and exits, until `startupOver`. */
export function startupPolicy(argv: readonly string[]): void {
  if (!over && answersAndExits(argv)) Bun.unsafe.setJITPolicy(PRINT_SCALE);
}

/** Back to the normal JIT policy; the first call does it, later calls do nothing. */
export function startupOver(): void {
  if (over) return;
  over = true;
  Bun.unsafe.setJITPolicy(1);
}
