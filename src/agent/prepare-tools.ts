/**
 * Tools made ready before their calls need them. A run's offered tools, while
 * the model answers its first request (prepareTools): each one's input schema
 * built and, for a tool that gives `load`, the module its calls run in
 * loaded, so the first call waits for neither; until the answer starts the
 * main thread has nothing else to do. One tool a task, Read first, then the
 * other read-only tools (a run's first calls are mostly reads, Read most of
 * all), and none once the answer has started: what is left is done by the
 * call that needs it, as before. And one call, while its arguments stream
 * (prepareCall).
 *
 * Measured (scripts/bench/turnaround.ts, a fresh `-p` process's first Read
 * call, interleaved, load 0.7): the answer written at once 11.2 ms without
 * this, 9.0 ms with it (n=15); streamed, 7.5 and 6.9 ms, 6.9 and 6.5 ms (two
 * runs of n=30). With the other tools right after Read, the answer written
 * at once reached the loop ~0.8 ms later (its first bytes met a tool being
 * made ready; in-process timestamps, 2 x 15 runs): hence the pause.
 */
import type { AnyTool } from '../tools/index.ts';
import type { RunCheckpoint } from './turn-checkpoint.ts';

/**
 * The tools after the first (Read, when offered) wait this long. A model
 * server on this machine answers the first request of a fresh process in
 * about 15 ms (the first connection's set-up), and a tool being made ready
 * then holds up the answer; no hosted model answers that soon.
 */
const REST_AFTER_MS = 40;

/** Tools already made ready in this process: schemas and modules are built once per process. */
const ready = new WeakSet<AnyTool>();

const rank = (t: AnyTool): number => (t.name === 'Read' ? 0 : t.effect === 'read' ? 1 : 2);

/**
 * Starts making `tools` ready, one a task, after the current one (by then the
 * request is on its way). Returns `stop`: call it when the answer starts.
 */
export function prepareTools(tools: readonly AnyTool[]): () => void {
  const queue = tools.filter((t) => !ready.has(t)).sort((a, b) => rank(a) - rank(b));
  let stopped = false;
  let done = 0;
  const next = (): void => {
    const tool = queue.shift();
    if (stopped || tool === undefined) return;
    ready.add(tool);
    buildSchema(tool);
    const then = (): void => void setTimeout(next, ++done === 1 ? REST_AFTER_MS : 0);
    // A module that fails to load is the call's to report, as it was without this.
    void (tool.load?.() ?? Promise.resolve()).then(then, then);
  };
  if (queue.length > 0) setTimeout(next, 0);
  return () => {
    stopped = true;
  };
}

/**
 * What can be done for a call while its arguments still stream: the run's
 * checkpoint read ahead (for a call that can change files) and the tool's
 * input schema built (zod schemas are built on first use: ~2-4 ms for the
 * first Read in a fresh process, which otherwise comes after the stream's end).
 */
export function prepareCall(tool: AnyTool | undefined, checkpoint: Pick<RunCheckpoint, 'readAhead'>): void {
  checkpoint.readAhead(tool);
  if (tool !== undefined) buildSchema(tool);
}

/** Builds the tool's zod schema (a getter, built once); one that fails to build fails again, and is reported, at the call. */
function buildSchema(tool: AnyTool): void {
  try {
    void tool.inputSchema;
  } catch {
    // reported by the call
  }
}
