/** The session protocol's dispatcher: operations in, one ordered event stream out; no agent logic of its own. */
import { PermissionBroker, type OpenOptions, type RewindOutcome, type RewindRequest, type UserPart } from '../agent/index.ts';
import { assertNever, AsyncQueue, errorMessage, MoatError } from '../util/index.ts';
import { toSessionEvent, type SessionEvent } from './events.ts';
import type { OpAnswers, RequestOp, SessionOp } from './ops.ts';
import type { OwnerControls, ProtocolAgent, SessionOwner, SessionStart } from './session-owner.ts';

/** A user message, a compaction, a `!cmd` or a skill's expansion waiting for its run. */
type Waiting =
  | { kind: 'message'; content: string | UserPart[]; model: string | undefined }
  | { kind: 'compact'; instructions: string | undefined }
  | { kind: 'shell'; command: string }
  | { kind: 'skill'; name: string; args: string };

/** The operations whose events a front end follows to their end (`turn`, `compact`, `shell`, `expandSkill`). */
type RunOp = Extract<SessionOp, { type: 'user_message' | 'compact' | 'shell' | 'expand_skill' }>;

/** The one event that ends a run's (or a `!cmd`'s, or a skill expansion's) events. */
const isLast = (e: SessionEvent): boolean => e.type === 'run_finished' || e.type === 'shell_finished' || e.type === 'skill_expanded';

/**
 * Serves one session to one front end. Operations go in through `submit`
 * (or `request`, for the ones with an answer a front end waits for); every
 * event of every run comes out of `events`, in order, for the life of the
 * host. User messages (and `!cmd`s) that arrive while a run is going wait
 * their turn.
 * Each run gets its own AbortController, so `interrupt` reaches the HTTP
 * request and the running tools through one signal.
 */
export class SessionHost<A extends ProtocolAgent = ProtocolAgent> {
  private readonly out = new AsyncQueue<SessionEvent>();
  private readonly reader = this.out[Symbol.asyncIterator]();
  private readonly waiting: Waiting[] = [];
  private running: AbortController | undefined;
  private ended = false;
  /** A rewind or a worktree's merge is changing the project's files: no run starts until it ends. */
  private changingFiles = false;
  /** Runs whose `turn()` reader stopped early: their remaining events are skipped by the next reader. */
  private abandoned = 0;
  /** The model and mode set through operations: a session opened by `new_session` or `resume` starts with them. */
  private readonly carried: SessionStart = {};

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
        this.carried.permissionMode = op.mode;
        return;
      case 'set_model':
        // A name no provider takes stays out of the session.
        this.owner.checkModel?.(op.model);
        this.current.setModel(op.model);
        this.carried.model = op.model;
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
      case 'shell':
        this.check(op);
        this.waiting.push({ kind: 'shell', command: op.command });
        this.pump();
        return;
      case 'expand_skill':
        this.check(op);
        this.waiting.push({ kind: 'skill', name: op.name, args: op.args });
        this.pump();
        return;
      case 'add_prompt_history':
        if (op.text.trim() === '') throw new MoatError('usage', 'add_prompt_history: the prompt is empty');
        this.control('addPromptHistory', 'keep a prompt history')(op.text);
        return;
      case 'approve_mcp_servers':
        if (op.names.length === 0) throw new MoatError('usage', 'approve_mcp_servers: no server named');
        this.control('approveMcpServers', 'approve MCP servers')(op.names);
        return;
      case 'stop_subagent':
        if (!this.control('stopSubagent', 'stop sub-agents')(op.agentId)) throw new MoatError('usage', `no queued or running sub-agent ${op.agentId}`);
        return;
      // Asked without waiting for the answer: the outcome is a notice.
      case 'rewind':
      case 'reconnect_mcp':
      case 'merge_worktree':
      case 'remove_worktree':
        void this.outcome(op).then(
          (message) => this.out.push({ type: 'notice', level: 'info', message }),
          (e: unknown) => this.out.push({ type: 'notice', level: 'error', message: errorMessage(e) }),
        );
        return;
      case 'end':
        this.ended = true;
        this.pump();
        return;
      default:
        assertNever(op, 'session operation');
    }
  }

  /**
   * An operation with an answer (a rewind, a reconnect, a worktree merged or
   * removed): resolves with it, or rejects with why it was refused.
   */
  request<O extends RequestOp>(op: O): Promise<OpAnswers[O['type']]>;
  async request(op: RequestOp): Promise<OpAnswers[RequestOp['type']]> {
    switch (op.type) {
      case 'rewind': {
        const { type: _op, ...req } = op;
        return this.rewind(req);
      }
      case 'reconnect_mcp':
        return this.control('reconnectMcp', 'reconnect MCP servers')(op.server);
      case 'merge_worktree': {
        const merge = this.control('mergeWorktree', 'merge worktrees');
        return this.changesFiles('merge a worktree', () => merge(this.current, op.id));
      }
      case 'remove_worktree':
        return this.control('removeWorktree', 'remove worktrees')(op.id, op.force === true);
      default:
        return assertNever(op, 'request operation');
    }
  }

  /** One line saying what an answered operation did, for a front end that did not wait for it. */
  private async outcome(op: RequestOp): Promise<string> {
    switch (op.type) {
      case 'rewind': {
        const { type: _op, ...req } = op;
        return rewindNotice(await this.request(op), req);
      }
      case 'reconnect_mcp':
        await this.request(op);
        return `MCP server ${op.server} reconnected`;
      case 'merge_worktree': {
        const { branch, outcome } = await this.request(op);
        return `merging ${branch}: ${outcome.kind}`;
      }
      case 'remove_worktree': {
        const { branch } = await this.request(op);
        return `removed worktree ${op.id} and branch ${branch}`;
      }
      default:
        return assertNever(op, 'request operation');
    }
  }

  /** The owner's part an operation needs; a front end that did not give it refuses the operation. */
  private control<K extends keyof OwnerControls<A>>(name: K, what: string): NonNullable<OwnerControls<A>[K]> {
    const part = this.owner.controls?.[name];
    if (part === undefined) throw new MoatError('usage', `this session cannot ${what}`);
    return part;
  }

  /** Ends the open session and serves a new or saved one; open questions are denied. */
  private switchTo(how: OpenOptions): void {
    if (this.running || this.changingFiles || this.waiting.length > 0) throw new MoatError('usage', 'cannot switch sessions while the session is working: interrupt it first');
    // Opened first: a resume that names no session leaves the open one as it was.
    const next = this.owner.open(this.broker?.ask, how, { ...this.carried });
    this.broker?.cancelAll();
    const left = this.current;
    this.current = next;
    this.owner.end?.(left);
  }

  /** A rewind, answered (changesFiles). */
  async rewind(req: RewindRequest): Promise<RewindOutcome> {
    return this.changesFiles('rewind', () => {
      if (!this.current.rewind) throw new MoatError('usage', 'this session cannot rewind');
      return this.current.rewind(req);
    });
  }

  /**
   * Work that changes the project's files (a rewind, a worktree's merge):
   * refused while a run is going (its files and history are still changing)
   * or while another such change runs; a prompt sent meanwhile waits for it.
   */
  private async changesFiles<T>(what: string, work: () => Promise<T>): Promise<T> {
    if (this.running || this.changingFiles) throw new MoatError('usage', `cannot ${what} while the session is working: interrupt it first`);
    this.changingFiles = true;
    try {
      return await work();
    } finally {
      this.changingFiles = false;
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

  /** Like `turn`, for `!cmd`: its permission events, then its `shell_finished`. A bad command throws here, before anything is queued. */
  shell(command: string, signal: AbortSignal): AsyncIterable<SessionEvent> {
    const op: RunOp = { type: 'shell', command };
    // Checked now: a generator's body (and so submit) would only run once the caller starts reading.
    this.check(op);
    return this.follow(op, signal);
  }

  /** Like `turn`, for `/name args`: its !`cmd` lines' permission events, then its `skill_expanded`. Refused here when this session runs no skills. */
  expandSkill(name: string, args: string, signal: AbortSignal): AsyncIterable<SessionEvent> {
    const op: RunOp = { type: 'expand_skill', name, args };
    this.check(op);
    return this.follow(op, signal);
  }

  /** A `!cmd` or a skill's expansion, before it is queued: refused when this session has no part for it, or when it names nothing. */
  private check(op: Extract<RunOp, { type: 'shell' | 'expand_skill' }>): void {
    if (op.type === 'shell') {
      this.control('shell', 'run shell commands');
      if (op.command.trim() === '') throw new MoatError('usage', 'shell: no command given');
    } else {
      this.control('expandSkill', 'run skills');
      if (op.name.trim() === '') throw new MoatError('usage', 'expand_skill: no skill named');
    }
  }

  private async *follow(op: RunOp, signal: AbortSignal): AsyncIterable<SessionEvent> {
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
          if (isLast(next.value)) this.abandoned--;
          continue;
        }
        if (isLast(next.value)) finished = true;
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
    if (this.running || this.changingFiles) return;
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
    if (next.kind === 'shell') return this.runShell(next.command, controller.signal);
    if (next.kind === 'skill') return this.expand(next.name, next.args, controller.signal);
    const events =
      next.kind === 'compact'
        ? this.current.compact(next.instructions, controller.signal)
        : this.current.run(next.content, controller.signal, next.model === undefined ? {} : { model: next.model });
    // Start-up ends at the TUI's first frame, or a second after start (src/util/jit-policy.ts), not at the first answer.
    // The one place the agent's events become the protocol's.
    for await (const e of events) this.out.push(toSessionEvent(e));
  }

  /** A skill's expansion always ends with its `skill_expanded`: a front end follows its events up to it. */
  private async expand(name: string, args: string, signal: AbortSignal): Promise<void> {
    try {
      const expanded = await this.control('expandSkill', 'run skills')(this.current, name, args, signal, (e) => this.out.push(toSessionEvent(e)));
      this.out.push({ type: 'skill_expanded', name, ...expanded });
    } catch (e) {
      this.out.push({ type: 'skill_expanded', name, error: errorMessage(e) });
    }
  }

  /** A `!cmd` always ends with its `shell_finished`: a front end follows its events up to it. */
  private async runShell(command: string, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    try {
      const result = await this.control('shell', 'run shell commands')(this.current, command, signal, (e) => this.out.push(toSessionEvent(e)));
      this.out.push({ type: 'shell_finished', ...result });
    } catch (e) {
      this.out.push({ type: 'shell_finished', command, output: '', exitCode: null, durationMs: Math.round(performance.now() - started), error: errorMessage(e) });
    }
  }
}

/** One line saying what a rewind did. */
export function rewindNotice(o: RewindOutcome, req: RewindRequest): string {
  const parts: string[] = [];
  if (o.code) parts.push(o.code.filesChanged.length === 0 ? 'the files were already as they were' : `${req.dryRun === true ? 'would change' : 'changed'} ${o.code.filesChanged.length} file${o.code.filesChanged.length === 1 ? '' : 's'} back (${o.code.filesChanged.slice(0, 5).join(', ')})`);
  if (o.branch !== undefined) parts.push(`conversation rewound; the old branch is session ${o.branch}`);
  return parts.join('; ') || 'nothing to rewind';
}
