/** The session protocol's dispatcher: operations in, one ordered event stream out; no agent logic of its own. */
import type { PermissionMode } from '../contracts/index.ts';
import { PermissionBroker, type AgentEvent, type AskPermission, type HookCallbackSet, type OpenOptions, type ReloadableSettings, type RewindOutcome, type RewindRequest, type RunOptions, type UserPart } from '../agent/index.ts';
import { assertNever, AsyncQueue, errorMessage, MoatError } from '../util/index.ts';
import { toSessionEvent, type SessionEvent } from './events.ts';
import type { SessionOp } from './ops.ts';

/** What the host drives: an AgentSession. */
export interface ProtocolAgent {
  run(prompt: string | UserPart[], signal: AbortSignal, opts?: RunOptions): AsyncIterable<AgentEvent>;
  /** `/compact`: a run of its own that replaces the history with a summary. */
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<AgentEvent>;
  setModel(model: string): void;
  setPermissionMode(mode: PermissionMode): void;
  setThinkingBudget(tokens: number | undefined): void;
  addRule(behavior: 'allow' | 'deny', rule: string): void;
  removeRule(behavior: 'allow' | 'deny', rule: string): void;
  applyConfig(settings: ReloadableSettings, hooks: HookCallbackSet | undefined): void;
  /** Files and/or conversation back to before a user message; absent: the session cannot rewind. */
  rewind?(req: RewindRequest): Promise<RewindOutcome>;
}

/**
 * Where the host's sessions come from, and what outlives one session: the
 * settings files rules are kept in, and the folder's trust. A front end that
 * never switches sessions or keeps rules (-p) gives only `open`.
 */
export interface SessionOwner<A extends ProtocolAgent> {
  /** Opens a session whose questions go to `ask` (undefined: nothing can answer). */
  open(ask: AskPermission | undefined, how: OpenOptions): A;
  /** A session left by `new_session` or `resume` ends (its SessionEnd hooks run). */
  end?(agent: A): void;
  /** Keeps a rule in a settings file (`add_rule` with a scope). */
  keepRule?(behavior: 'allow' | 'deny', rule: string, scope: 'project' | 'user'): void;
  /** Drops a rule from the settings files that keep it. */
  forgetRule?(behavior: 'allow' | 'deny', rule: string): void;
  /** Trusts the folder and reads its configuration again: what it now grants; undefined when nothing changes. */
  trust?(): { settings: ReloadableSettings; hooks: HookCallbackSet | undefined } | undefined;
}

/** A user message or a compaction waiting for its run. */
type Waiting = { kind: 'message'; content: string | UserPart[]; model: string | undefined } | { kind: 'compact'; instructions: string | undefined };

/**
 * Serves one session to one front end. Operations go in through `submit`;
 * every event of every run comes out of `events`, in order, for the life of
 * the host. User messages that arrive while a run is going wait their turn.
 * Each run gets its own AbortController, so `interrupt` reaches the HTTP
 * request and the running tools through one signal.
 */
export class SessionHost<A extends ProtocolAgent = ProtocolAgent> {
  private readonly out = new AsyncQueue<SessionEvent>();
  private readonly reader = this.out[Symbol.asyncIterator]();
  private readonly waiting: Waiting[] = [];
  private running: AbortController | undefined;
  private ended = false;
  private rewinding = false;
  /** Runs whose `turn()` reader stopped early: their remaining events are skipped by the next reader. */
  private abandoned = 0;

  /**
   * Opens the agent and serves it. The host owns the permission broker: when
   * the front end answers questions (`answerable`), the agent is opened with
   * the broker's `ask`, and each `permission_request` event is answered by a
   * `permission_answer` operation. Otherwise (-p) the agent has no one to ask
   * and denies with a hint instead. One broker serves every session the host
   * opens: a background sub-agent of a session left by /clear still asks here.
   */
  static open<A extends ProtocolAgent>(owner: SessionOwner<A>, answerable: boolean, how: OpenOptions = {}): { host: SessionHost<A>; agent: A } {
    const broker = answerable ? new PermissionBroker() : undefined;
    const host = new SessionHost(owner, broker, owner.open(broker?.ask, how));
    return { host, agent: host.current };
  }

  private constructor(
    private readonly owner: SessionOwner<A>,
    /** Absent when nothing can answer a question (-p). */
    private readonly broker: PermissionBroker | undefined,
    private current: A,
  ) {}

  /** The session the host serves now (another one after `new_session` or `resume`). */
  get agent(): A {
    return this.current;
  }

  /** Denies every question still waiting for an answer (the front end is going away, or switching sessions). */
  cancelQuestions(message?: string): void {
    this.broker?.cancelAll(message);
  }

  /** Every event, in order; one consumer. Ends after an `end` operation, once the waiting runs are done. */
  readonly events: AsyncIterable<SessionEvent> = { [Symbol.asyncIterator]: () => this.reader };

  /** True while a run is going. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  submit(op: SessionOp): void {
    switch (op.type) {
      case 'user_message':
        this.waiting.push({ kind: 'message', content: op.content, model: op.model });
        this.pump();
        return;
      case 'compact':
        this.waiting.push({ kind: 'compact', instructions: op.instructions });
        this.pump();
        return;
      case 'interrupt':
        this.running?.abort();
        return;
      case 'permission_answer':
        this.broker?.respond(op.requestId, op.decision);
        return;
      case 'set_permission_mode':
        this.current.setPermissionMode(op.mode);
        return;
      case 'set_model':
        this.current.setModel(op.model);
        return;
      case 'set_thinking_budget':
        this.current.setThinkingBudget(op.tokens ?? undefined);
        return;
      case 'add_rule':
        // Parsed by the session first: a rule that does not parse is kept nowhere.
        this.current.addRule(op.behavior, op.rule);
        if (op.scope !== undefined) this.owner.keepRule?.(op.behavior, op.rule, op.scope);
        return;
      case 'remove_rule':
        this.current.removeRule(op.behavior, op.rule);
        this.owner.forgetRule?.(op.behavior, op.rule);
        return;
      case 'apply_config':
        this.current.applyConfig(op.settings, op.hooks);
        return;
      case 'trust_project': {
        const granted = this.owner.trust?.();
        if (granted !== undefined) this.current.applyConfig(granted.settings, granted.hooks);
        return;
      }
      case 'new_session':
        this.switchTo({ startSource: 'clear' });
        return;
      case 'resume':
        this.switchTo({ resume: op.sessionId });
        return;
      case 'rewind': {
        const { type: _op, ...req } = op;
        void this.rewind(req).then(
          (o) => this.out.push({ type: 'notice', level: 'info', message: rewindNotice(o, req) }),
          (e: unknown) => this.out.push({ type: 'notice', level: 'error', message: errorMessage(e) }),
        );
        return;
      }
      case 'end':
        this.ended = true;
        this.pump();
        return;
      default:
        assertNever(op, 'session operation');
    }
  }

  /** Ends the open session and serves a new or saved one; open questions are denied. */
  private switchTo(how: OpenOptions): void {
    if (this.running || this.rewinding || this.waiting.length > 0) throw new MoatError('usage', 'cannot switch sessions while the session is working: interrupt it first');
    // Opened first: a resume that names no session leaves the open one as it was.
    const next = this.owner.open(this.broker?.ask, how);
    this.broker?.cancelAll();
    const left = this.current;
    this.current = next;
    this.owner.end?.(left);
  }

  /**
   * A rewind, answered: refused while a run is going (its files and history
   * are still changing) or while another rewind runs.
   */
  async rewind(req: RewindRequest): Promise<RewindOutcome> {
    if (this.running || this.rewinding) throw new MoatError('usage', 'cannot rewind while the session is working: interrupt it first');
    if (!this.current.rewind) throw new MoatError('usage', 'this session cannot rewind');
    this.rewinding = true;
    try {
      return await this.current.rewind(req);
    } finally {
      this.rewinding = false;
      this.pump();
    }
  }

  /**
   * For front ends that run one prompt at a time (the TUI, `-p`): submits it
   * and yields its events up to and including its `run_finished`. Aborting
   * `signal` sends `interrupt`; `model` is this run's alone.
   */
  turn(content: string | UserPart[], signal: AbortSignal, model?: string): AsyncIterable<SessionEvent> {
    return this.follow({ type: 'user_message', content, ...(model === undefined ? {} : { model }) }, signal);
  }

  /** Like `turn`, for `/compact [instructions]`: its events up to its `run_finished`. */
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<SessionEvent> {
    return this.follow({ type: 'compact', ...(instructions === undefined ? {} : { instructions }) }, signal);
  }

  private async *follow(op: Extract<SessionOp, { type: 'user_message' | 'compact' }>, signal: AbortSignal): AsyncIterable<SessionEvent> {
    const interrupt = () => this.submit({ type: 'interrupt' });
    this.submit(op);
    if (signal.aborted) interrupt();
    signal.addEventListener('abort', interrupt, { once: true });
    let finished = false;
    try {
      for (;;) {
        const next = await this.reader.next();
        if (next.done) return;
        if (this.abandoned > 0) {
          if (next.value.type === 'run_finished') this.abandoned--;
          continue;
        }
        if (next.value.type === 'run_finished') finished = true;
        yield next.value;
        if (finished) return;
      }
    } finally {
      signal.removeEventListener('abort', interrupt);
      // A reader that stops early (the UI failed, or broke off) interrupts its run; what is left of it is skipped.
      if (!finished) {
        this.abandoned++;
        interrupt();
      }
    }
  }

  private pump(): void {
    if (this.running || this.rewinding) return;
    const next = this.waiting.shift();
    if (next === undefined) {
      if (this.ended) this.out.close();
      return;
    }
    const controller = new AbortController();
    this.running = controller;
    this.drive(next, controller)
      .catch((e: unknown) => this.out.push({ type: 'notice', level: 'error', message: errorMessage(e) }))
      .finally(() => {
        this.running = undefined;
        this.pump();
      });
  }

  private async drive(next: Waiting, controller: AbortController): Promise<void> {
    const events =
      next.kind === 'compact'
        ? this.current.compact(next.instructions, controller.signal)
        : this.current.run(next.content, controller.signal, next.model === undefined ? {} : { model: next.model });
    // Start-up ends at the TUI's first frame, or a second after start (src/util/jit-policy.ts), not at the first answer.
    // The one place the agent's events become the protocol's.
    for await (const e of events) this.out.push(toSessionEvent(e));
  }
}

/** One line saying what a rewind did. */
export function rewindNotice(o: RewindOutcome, req: RewindRequest): string {
  const parts: string[] = [];
  if (o.code) parts.push(o.code.filesChanged.length === 0 ? 'the files were already as they were' : `${req.dryRun === true ? 'would change' : 'changed'} ${o.code.filesChanged.length} file${o.code.filesChanged.length === 1 ? '' : 's'} back (${o.code.filesChanged.slice(0, 5).join(', ')})`);
  if (o.branch !== undefined) parts.push(`conversation rewound; the old branch is session ${o.branch}`);
  return parts.join('; ') || 'nothing to rewind';
}
