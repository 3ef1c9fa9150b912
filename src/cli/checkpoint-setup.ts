/** A session's checkpoints as the agent takes them: the project's shadow repository from the user's `[checkpoints]` settings. */
import type { TurnCheckpoints } from '../agent/index.ts';
import { checkpointsRoot, projectCheckpoints, turnHook } from '../checkpoints/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import type { Store } from '../store/index.ts';

/**
 * `{ checkpoints }` for AgentDeps, or nothing when `[checkpoints] enabled =
 * false`. A rewind a kill cut short in this project is finished (or undone)
 * now, in the background, under the repository's lock.
 */
export function checkpointDeps(loaded: LoadedConfig, store: Store, env: Env, warn: (line: string) => void): { checkpoints?: TurnCheckpoints } {
  const { dataDir } = moatPaths(env);
  const pc = projectCheckpoints(store, loaded.projectRoot, dataDir, loaded.checkpoints);
  if (!pc) return {};
  if (pc.interrupted()) pc.open().catch((e: unknown) => warn(`could not finish an interrupted rewind: ${e instanceof Error ? e.message : String(e)}`));
  return { checkpoints: turnHook(pc, store, loaded.checkpoints, checkpointsRoot(dataDir)) };
}

/** A change made between runs (a worktree merged, a `!cmd`), recorded in `agent`'s checkpoints so that a rewind undoes it as moat's change. */
export type RecordChange = <T>(agent: { readonly id: string }, change: () => Promise<T>) => Promise<T>;

/** Checkpointed before and after with the session's next message; without checkpoints, just the change. */
export function recordChangeWith(checkpoints: TurnCheckpoints | undefined, log: (line: string) => void): RecordChange {
  return (agent, change) => (checkpoints?.around ? checkpoints.around(agent.id, change, log) : change());
}
