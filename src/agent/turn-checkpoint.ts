/** A run's checkpoint: the working tree recorded before the run's first call that can change files, and again after each batch of calls. */
import type { SandboxGrant } from '../contracts/index.ts';
import type { AnyTool } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';
import type { AgentEvent } from './events.ts';

/**
 * What a session records its turns with (the project's shadow repository,
 * assembled by the CLI). `turn` is the turn of the user message the run
 * started with. `before` is taken once per turn; `after` may be called
 * again as the run goes on and keeps the newest state.
 */
export interface TurnCheckpoints {
  before(sessionId: string, turn: number): Promise<unknown>;
  after(sessionId: string, turn: number): Promise<void>;
  /** Starts taking the checkpoint before `turn`, in the background (while the model streams its first change). */
  readAhead?(sessionId: string, turn: number): void;
  /** Puts the files back to just before the user message of `turn` (or, dry, says what that would change). */
  rewindCode?(sessionId: string, turn: number, o: { force: boolean; dryRun: boolean }): Promise<CodeRewind>;
  /** The session's user messages with what each run changed, for a rewind list. */
  points?(sessionId: string): Promise<RewindPointView[]>;
  /** A change made between runs (a worktree merged, a `!cmd`): the tree recorded before and after it, with the next user message. */
  around?<T>(sessionId: string, change: () => Promise<T>, warn: (line: string) => void): Promise<T>;
}

/** What a code rewind did (or, dry, would do). */
export interface CodeRewind {
  /** One line per file: `restore a.txt`, `delete b.txt`, `re-create c.txt`. */
  lines: string[];
  filesChanged: string[];
  insertions: number;
  deletions: number;
  /** What it left as it was (files over the size limit, ignored folders), one line each. */
  leftOut: string[];
  /** The commit keeping the files as they were before the rewind. */
  saved: string | undefined;
}

/** One user message in a rewind list. */
export interface RewindPointView {
  index: number;
  turn: number;
  text: string;
  /** `a.txt +1 -1, …`, or `no file changes`. */
  summary: string;
}

/** The id front ends use to name the point before a user message (stream-json's `uuid`, `rewindFiles`). */
export function checkpointId(turn: number): string {
  return `turn-${turn}`;
}

/**
 * Whether a call can change the project's files: anything but a read-only
 * or network tool, unless the OS sandbox holds it read-only; and the task
 * tool, whose sub-agent may work in this folder or merge into it.
 */
export function mayChangeFiles(tool: AnyTool, sandbox: SandboxGrant | undefined): boolean {
  // The sub-agents' task tool is read-only itself; what it starts is not.
  if (tool.name === 'Task') return true;
  if (tool.effect === 'read' || tool.effect === 'network') return false;
  return sandbox !== 'read-only';
}

/**
 * One run's checkpoint. The first call that can change files waits for the
 * checkpoint before it runs (a change is never made before the state it
 * would lose is recorded). A failure is one warning; the run goes on.
 */
export class RunCheckpoint {
  private taken: Promise<boolean> | undefined;
  private dirty = false;
  private reading = false;

  constructor(
    private readonly hook: TurnCheckpoints | undefined,
    private readonly sessionId: string,
    private readonly turn: number,
    private readonly emit: (e: AgentEvent) => void,
  ) {}

  /**
   * When the model starts a call that can change files: the checkpoint is
   * taken ahead while the call's arguments stream, so the one before the
   * call costs little even in a fresh process. Not at the request: on a turn that
   * changes nothing that is git's work for nothing, and it slows a fast
   * answer's first tool call (scripts/bench/turnaround.ts, n=11: the first
   * call of a fresh -p 11.2 -> 16.9 ms when it started with the request).
   */
  readAhead(tool: AnyTool | undefined): void {
    const hook = this.hook;
    if (this.taken !== undefined || this.reading || hook?.readAhead === undefined || tool === undefined || !mayChangeFiles(tool, undefined)) return;
    this.reading = true;
    hook.readAhead(this.sessionId, this.turn);
  }

  /** Before a call that can change files. */
  async before(): Promise<void> {
    if (!this.hook) return;
    const hook = this.hook;
    this.taken ??= hook.before(this.sessionId, this.turn).then(
      () => true,
      (e: unknown) => {
        this.emit({ type: 'notice', level: 'warning', message: `checkpoints are off for this session: ${errorMessage(e)}` });
        return false;
      },
    );
    this.dirty = (await this.taken) || this.dirty;
  }

  /** After a batch of calls: records the tree the run has made so far, when a call could have changed it. */
  async settle(): Promise<void> {
    if (!this.hook || !this.dirty) return;
    this.dirty = false;
    try {
      await this.hook.after(this.sessionId, this.turn);
    } catch (e) {
      this.emit({ type: 'notice', level: 'warning', message: `could not record the files after this step: ${errorMessage(e)}` });
    }
  }
}
