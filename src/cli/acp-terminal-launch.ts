/**
 * `moat __acp-terminal <spec>`: what an editor's terminal runs for a Bash call (editor-terminal-bash.ts).
 * It starts the command moat prepared for its OS sandbox with exactly the prepared environment (not
 * the editor's), passes the output through, and ends the whole process group when the editor kills it.
 */
import { readFileSync, rmSync } from 'node:fs';
import { constants } from 'node:os';
import { basename } from 'node:path';
import { z } from 'zod';
import { childProcess, errorMessage, groupStopper } from '../util/index.ts';

export const TERMINAL_LAUNCH_SUBCOMMAND = '__acp-terminal';

const launchSpecSchema = z.strictObject({
  argv: z.array(z.string()).min(1),
  env: z.record(z.string(), z.string()),
});

export type LaunchSpec = z.infer<typeof launchSpecSchema>;

const KILL_GRACE_MS = 2_000;
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

function fail(line: string): number {
  process.stderr.write(`moat: ${line}\n`);
  return 2;
}

/** Reads the spec and deletes it: it is meant for one start. Only moat's own spec files are deleted. */
function readSpec(path: string): LaunchSpec {
  try {
    return launchSpecSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
  } finally {
    if (/^moat-terminal-[0-9a-f]+\.json$/.test(basename(path))) rmSync(path, { force: true });
  }
}

export async function runTerminalLaunch(args: readonly string[]): Promise<number> {
  const [path] = args;
  if (path === undefined || args.length !== 1) return fail(`${TERMINAL_LAUNCH_SUBCOMMAND} takes one spec file (moat starts it in an editor's terminal)`);
  let spec: LaunchSpec;
  try {
    spec = readSpec(path);
  } catch (e) {
    return fail(`cannot read the terminal spec ${path}: ${e instanceof z.ZodError ? 'not a spec moat wrote' : errorMessage(e)}`);
  }
  const [file = '', ...rest] = spec.argv;
  // Its own process group, so a kill reaches whatever the command started (inside the sandbox, its PID namespace ends with it).
  const child = childProcess().spawn(file, rest, { env: spec.env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  const group = groupStopper(child.pid, KILL_GRACE_MS);
  for (const name of Object.keys(SIGNALS) as (keyof typeof SIGNALS)[]) process.on(name, () => group.stop());
  return new Promise<number>((resolve) => {
    child.on('error', (e) => resolve(fail(`cannot start the command: ${errorMessage(e)}`)));
    child.on('exit', (code, signal) => {
      group.dispose();
      resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}
