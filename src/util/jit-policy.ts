/**
 * The end of start-up, for JavaScriptCore's JIT. The executable starts with the
 * JIT's tier-up thresholds scaled up (scripts/build.ts, `jitPolicy`): most
 * start-up code runs once or a few hundred times, and compiling it keeps the
 * JIT threads busy on the cores start-up itself needs (measured on 2 cores:
 * `-p` read-then-answer 8 ms faster and 3.6 MB smaller). Once a front end is
 * interactive it calls `startupOver`, and code that is hot from then on
 * (rendering, streaming, the tool loop) is compiled as usual; the CLI calls it
 * a second after start in any case.
 */

let over = false;

/** Back to the normal JIT policy; the first call does it, later calls do nothing. */
export function startupOver(): void {
  if (over) return;
  over = true;
  Bun.unsafe.setJITPolicy(1);
}
