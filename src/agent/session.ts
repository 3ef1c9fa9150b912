/** A conversation: its history, settings and tools, and the loop that runs one prompt to the end. */
import { textOf, ZERO_USAGE, type AssistantMessage, type Provider, type Message, type ToolSpec, type ToolUsePart, type Usage, type UserMessage, type UserPart } from '../providers/index.ts';
import { deniedOutright, MCP_DEFER_SHARE, parseRuleList, sandboxedGitStatus, ToolRegistry, type AnyTool, type Rule, type TodoItem } from '../tools/index.ts';
import type { NewSession } from '../store/index.ts';
import { AsyncQueue, errorMessage, gitHead, gitInfo, newId, realPathOrSelf, type GitInfo } from '../util/index.ts';
import { needsCompaction, summarize, summaryMessage } from './compaction.ts';
import { CostMeter } from './cost-meter.ts';
import type { AgentEvent, RunStopReason } from './events.ts';
import { mergeConsecutiveUsers } from './history.ts';
import { runHooks, type HookCallbackSet } from './hooks.ts';
import { SessionHookRunner } from './session-hook-runner.ts';
import type { AgentDeps, OpenOptions, RunOptions } from './session-options.ts';
import { checkCommandPermission, type CommandCheckOptions, type GateResult, type PermissionPolicy, type RememberScope } from './command-permission.ts';
import { streamTurnOnChain } from './fallback.ts';
import { contextWindow, costUsd, modelLimits } from './pricing.ts';
import { askWhileRunning, restoreSession, sessionRegistry, subagentHost, type Restored } from './session-tree.ts';
import { rewindSession, type RewindOutcome, type RewindRequest } from './session-rewind.ts';
import { Run, type OfferedTools, type RequestFailure } from './run.ts';
import { STRUCTURED_OUTPUT_TOOL, structuredOutputTool } from './structured-output.ts';
import { applyReloadable, type AgentSettings, type ReloadableSettings } from './settings.ts';
import { afterAnswer, CONTINUE, finish, type Step } from './after-answer.ts';
import { instructionsKey, sessionSystemPrompt } from './session-prompt.ts';
import { makeToolContext, type ContextSource } from './tool-context.ts';
import { dispatchToolCalls, type DispatchDeps } from './tool-dispatch.ts';
import { prepareCall, prepareTools } from './prepare-tools.ts';
import { keepPartial } from './turn.ts';
import { checkpointId } from './turn-checkpoint.ts';
import { recordPrompt } from './prompt-record.ts';

export type { AgentDeps, OpenOptions, RunOptions };

/** SessionEnd hooks run while moat exits: they may not hold it up for long. */
const SESSION_END_TIMEOUT_MS = 10_000;

/** What every step of one run shares, fixed when the run starts (`first`: the tools its first request offers), but `system` and `instructionsKey`, which an MCP server that connects during the run changes. */
interface TurnContext { run: Run; first: OfferedTools; system: string; instructionsKey: string; contextSource: ContextSource; provider: Provider; runModel: string; signal: AbortSignal }

/**
 * A conversation: its history, its tools, and the loop that runs it. Every
 * finished message is persisted the moment it finishes, so a crash or a kill
 * loses at most the message in flight.
 */
export class AgentSession {
  readonly id: string;
  readonly resumed: boolean;
  private history: Message[];
  /** Not readonly: a trusted folder's hooks replace the set (applyConfig). */
  private deps: AgentDeps;
  /** A copy: the model, the mode and the rules can change during a session (TUI, control requests). */
  private readonly settings: AgentSettings;
  /** "Allow always" answers given in this session; they hold for its remaining calls and its sub-agents. */
  private readonly granted: Rule[] = [];
  /** Awaited when a prompt builds the system prompt: git answers while the session gets ready. */
  private readonly git: Promise<GitInfo | undefined>;
  /** The branch when the session opened (from .git/HEAD). */
  private readonly gitBranch: string | undefined;
  /** OpenOptions.ready: settled before a prompt's first request. */
  private readonly ready: Promise<unknown> | undefined;
  private roots: string[];
  private readonly readFiles = new Set<string>();
  private todos: TodoItem[];
  private turnBase: number;
  /** Everything this session and its sub-agents spent; a run's meter adds into it. */
  private readonly sessionMeter: CostMeter;
  /** The run in progress: sub-agents' events and spending go into it. */
  private current: Run | undefined;
  private readonly registry: ToolRegistry;
  /** SessionStart runs once, before this session object's first prompt. */
  private started = false;
  private readonly depth: number;
  private readonly startSource: 'startup' | 'clear';
  /** Runs the hooks in force, with Claude Code's JSONL transcript for `transcript_path`. */
  private readonly hooks: SessionHookRunner;

  private constructor(deps: AgentDeps, r: Restored, opts: OpenOptions, git: { info: Promise<GitInfo | undefined>; branch: string | undefined }) {
    this.deps = deps;
    this.settings = { ...deps.settings, allow: [...deps.settings.allow], deny: [...deps.settings.deny] };
    this.id = r.id;
    this.history = r.history;
    this.resumed = r.resumed;
    this.todos = r.todos;
    this.turnBase = r.turnBase;
    this.sessionMeter = new CostMeter(undefined, opts.parentMeter, { usage: r.usage, costUsd: r.costUsd });
    this.git = git.info;
    this.gitBranch = git.branch;
    this.ready = opts.ready;
    this.roots = [this.settings.cwd, ...this.settings.addDirs].map(realPathOrSelf);
    const depth = (this.depth = opts.depth ?? 0);
    this.startSource = opts.startSource ?? 'startup';
    this.hooks = new SessionHookRunner({
      id: this.id,
      settings: this.settings,
      gitBranch: git.branch,
      sidechain: depth > 0,
      store: () => this.deps.store,
      hooks: () => this.deps.hooks,
    });
    const host = subagentHost(deps.subagents, depth, opts.allowSubagents ?? true, {
      sessionId: this.id,
      // A sub-agent answers its parent in prose: the output schema is the parent's alone.
      settings: () => {
        const { outputSchema: _parentsOnly, ...rest } = this.settings;
        return { ...rest, allow: [...rest.allow, ...this.granted], deny: [...rest.deny] };
      },
      offeredTools: () => this.offeredTools(),
      emit: (e) => this.current?.emit(e),
      meter: () => this.current?.meter ?? this.sessionMeter,
      openChild: (spec) =>
        AgentSession.open(
          {
            ...this.deps,
            checkpoints: undefined,
            registry: new ToolRegistry(spec.tools),
            settings: spec.settings,
            ask: askWhileRunning(this.deps.ask, () => this.current !== undefined),
          },
          { parentId: this.id, agentId: spec.agentId, depth: depth + 1, parentMeter: spec.parentMeter, allowSubagents: spec.allowSubagents },
        ),
    });
    const shared = sessionRegistry(deps.registry, host);
    const schema = this.settings.outputSchema;
    this.registry = schema === undefined ? shared : shared.extend([structuredOutputTool(schema, (value) => this.current && (this.current.structuredOutput = value))]);
  }

  static open(deps: AgentDeps, opts: OpenOptions = {}): AgentSession {
    const { store, settings } = deps;
    // Git facts once per session: the branch now from .git/HEAD; in a trusted folder the status from git, sandboxed, in the background.
    const head = gitHead(settings.cwd);
    const git = { info: opts.git ?? gitInfo(settings.cwd, head, settings.trustedFolder === true ? sandboxedGitStatus : undefined), branch: head?.branch };
    const restored = opts.resume === undefined ? undefined : restoreSession(store, settings.cwd, opts.resume);
    if (restored && !opts.fork) return new AgentSession(deps, restored, opts, git);
    const row: NewSession & { id: string } = {
      id: opts.sessionId ?? newId(),
      cwd: settings.cwd,
      projectRoot: settings.projectRoot,
      gitBranch: git.branch ?? null,
      model: settings.model,
      permissionMode: settings.permissionMode,
      parentId: opts.parentId ?? null,
      agentId: opts.agentId ?? null,
    };
    if (restored) {
      // A fork: the new session starts from the old history; its own totals start at zero.
      store.sessions.create(row);
      for (const m of restored.history) store.messages.append(row.id, m, 0);
      return new AgentSession(deps, { ...restored, id: row.id, turnBase: 0, usage: ZERO_USAGE, costUsd: 0 }, opts, git);
    }
    const session = new AgentSession(deps, { id: row.id, history: [], resumed: false, todos: [], turnBase: 0, usage: ZERO_USAGE, costUsd: 0 }, opts, git);
    // A given id is written now, so one already in use is an error before any request. A fresh one cannot collide:
    // its row is written behind the first request, as the session's other records are (prompt-record.ts).
    if (opts.sessionId === undefined) store.later((s) => s.sessions.create(row));
    else store.sessions.create(row);
    return session;
  }

  messages(): readonly Message[] {
    return this.history;
  }

  /** Tools offered: plan mode's read-only ones, none a bare deny rule refuses; the registry follows drop-ins and past 20 offers ToolSearch. */
  offeredTools(): AnyTool[] {
    const { permissionMode, deny, onlyTools } = this.settings;
    const only = onlyTools === undefined ? undefined : new Set(onlyTools.map((n) => n.toLowerCase()));
    return this.registry
      // MCP tools wait behind ToolSearch only past a share of this model's context.
      .offered(this.id, MCP_DEFER_SHARE * contextWindow(this.settings.model, this.deps.models))
      .filter(
        (t) =>
          // Plan mode offers a command tool when the OS sandbox keeps it read-only.
          (permissionMode !== 'plan' || t.effect === 'read' || (t.osSandboxed === true && this.settings.processSandbox?.active === true)) &&
          !deniedOutright(t.name, deny) &&
          // --tools picks among the built-ins (as in Claude Code); MCP servers' tools are configured with the servers.
          (only === undefined || only.has(t.name.toLowerCase()) || t.name === STRUCTURED_OUTPUT_TOOL || t.name.startsWith('mcp__')),
      );
  }

  currentSettings(): Readonly<AgentSettings> {
    return this.settings;
  }

  /** A rule the user added (the TUI's /permissions, through the protocol): from the next call on. A bad rule throws. */
  addRule(behavior: 'allow' | 'deny', text: string): void {
    (behavior === 'allow' ? this.settings.allow : this.settings.deny).push(...parseRuleList([text]));
  }

  /** Drops every rule with this text, whether given, added or granted by an "always" answer: from the next call on. */
  removeRule(behavior: 'allow' | 'deny', text: string): void {
    const lists = behavior === 'allow' ? [this.settings.allow, this.granted] : [this.settings.deny];
    for (const list of lists) for (let i = list.length - 1; i >= 0; i--) if (list[i]?.text === text) list.splice(i, 1);
  }

  /** The session is over for this process (exit, /clear, stdin closed): the SessionEnd hooks run, their failures are only logged by the caller. */
  async end(reason: 'clear' | 'logout' | 'prompt_input_exit' | 'other'): Promise<string[]> {
    const set = this.deps.hooks;
    if (!this.started || set?.['SessionEnd'] === undefined) return [];
    const failures: string[] = [];
    const input = this.hooks.input('SessionEnd', { reason }, (e) => e.type === 'notice' && failures.push(e.message));
    return [...failures, ...(await runHooks(set, input, AbortSignal.timeout(SESSION_END_TIMEOUT_MS), reason)).failures];
  }

  /**
   * The folder's configuration was read again (the user trusted it): its
   * rules, extra folders, OS sandbox policy and hooks replace the old ones
   * from the next call on. The model, the mode and this session's "always"
   * grants stay as they are.
   */
  applyConfig(next: ReloadableSettings, hooks: HookCallbackSet | undefined): void {
    applyReloadable(this.settings, next);
    this.roots = [this.settings.cwd, ...this.settings.addDirs].map(realPathOrSelf);
    const { hooks: _old, ...rest } = this.deps;
    this.deps = hooks === undefined ? rest : { ...rest, hooks };
  }

  /** A `!cmd`, decided as a Bash call is, the session's grants included (command-permission.ts); its permission events go to `emit`. */
  checkCommand(command: string, emit: (e: AgentEvent) => void, signal: AbortSignal, o: CommandCheckOptions = {}): Promise<GateResult> {
    return checkCommandPermission(command, { bash: this.registry.get('Bash'), policy: this.policy(), ask: this.deps.ask, grant: (r, t, s) => this.keepGrant(r, t, s), emit, signal, cwd: this.settings.cwd, roots: this.roots }, o);
  }

  /** A rewind between runs: the files and/or the conversation back to just before a user message (session-rewind.ts). */
  async rewind(req: RewindRequest): Promise<RewindOutcome> {
    const { history, ...outcome } = await rewindSession({ hook: this.deps.checkpoints, store: this.deps.store, sessionId: this.id, cwd: this.settings.cwd }, req);
    if (history) this.history = history;
    return outcome;
  }

  /** Takes effect from the next model request. */
  setModel(model: string): void {
    this.settings.model = model;
    this.deps.store.sessions.setModel(this.id, model);
  }

  /** Takes effect from the next model request; undefined turns thinking off. The caller checks the range (at least 1024, below max_tokens). */
  setThinkingBudget(tokens: number | undefined): void {
    if (tokens === undefined) delete this.settings.thinkingBudget;
    else this.settings.thinkingBudget = tokens;
  }

  /** Takes effect from the next run (plan mode changes which tools are offered). */
  setPermissionMode(mode: AgentSettings['permissionMode']): void {
    this.settings.permissionMode = mode;
    this.deps.store.sessions.setPermissionMode(this.id, mode);
  }

  /** Runs one user prompt to completion; the events end with exactly one `run_finished`. */
  run(prompt: string | UserPart[], signal: AbortSignal, opts: RunOptions = {}): AsyncIterable<AgentEvent> {
    const queue = new AsyncQueue<AgentEvent>();
    const models = opts.model === undefined ? this.settings : { ...this.settings, model: opts.model };
    const run = new Run({ emit: (e) => queue.push(e), limitUsd: this.settings.maxBudgetUsd, parentMeter: this.sessionMeter, turnBase: this.turnBase, models, checkpoints: { hook: this.deps.checkpoints, sessionId: this.id } });
    this.current = run;
    this.loop(prompt, signal, run)
      .catch((e: unknown) => this.finish(run, 'error', errorMessage(e)))
      .finally(() => queue.close());
    return queue;
  }

  /**
   * `/compact [instructions]`: replaces the history with a summary now, as a
   * run of its own (its events end with one `run_finished`). PreCompact runs
   * with trigger `manual`; the instructions are added to the summary request.
   */
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<AgentEvent> {
    const queue = new AsyncQueue<AgentEvent>();
    const run = new Run({ emit: (e) => queue.push(e), limitUsd: this.settings.maxBudgetUsd, parentMeter: this.sessionMeter, turnBase: this.turnBase, models: this.settings });
    this.current = run;
    const go = async (): Promise<void> => {
      const offered = run.tools(this.offeredTools(), this.registry);
      this.announce(run, offered.names);
      if (this.history.length === 0) return this.finish(run, 'error', 'nothing to compact yet: the conversation is empty');
      const done = await this.compactHistory({ system: await this.systemPrompt(), specs: offered.specs, signal, run, trigger: 'manual', instructions });
      if (signal.aborted) return this.finish(run, 'aborted');
      if (!done.ok) return this.finish(run, 'error', `could not compact the conversation: ${done.message}`);
      run.lastText = done.notice;
      return this.finish(run, 'end_turn');
    };
    go()
      .catch((e: unknown) => this.finish(run, 'error', errorMessage(e)))
      .finally(() => queue.close());
    return queue;
  }

  /** One finished message: into the history, and into the store behind the next request (which also stamps the session's updated_at). */
  private persist(message: Message, turn: number): void {
    this.history.push(message);
    this.deps.store.later((s) => s.messages.append(this.id, message, turn));
  }

  /**
   * Ends a run. The session is settled before `run_finished` goes out: a
   * front end that starts the next run on seeing it finds the turn count
   * advanced and no run in progress. A store that cannot be written makes
   * the run's end an error (its first error stays the one reported): the
   * user learns that the session was not saved.
   */
  private finish(run: Run, stopReason: RunStopReason, error?: string, failure?: RequestFailure): void {
    if (this.current !== run) return;
    this.turnBase += run.turns;
    this.current = undefined;
    const status = stopReason === 'aborted' ? 'aborted' : stopReason === 'error' ? 'error' : 'completed';
    try {
      this.deps.store.sessions.setStatus(this.id, status);
    } catch (e) {
      if (stopReason !== 'error') return run.emit(run.finished('error', errorMessage(e)));
    }
    run.emit(run.finished(stopReason, error, failure));
  }

  /** An "always" answer: the session's grant from the next call on, persisted by the front end unless `session`. */
  private keepGrant(rule: Rule, text: string, scope: RememberScope): void {
    this.granted.push(rule);
    if (scope !== 'session') this.deps.remember?.(text, scope);
  }

  /** The permission policy for the next call: the settings' rules plus this session's grants. */
  private policy(): PermissionPolicy {
    const { settings } = this;
    return {
      mode: settings.permissionMode,
      allow: this.granted.length === 0 ? settings.allow : [...settings.allow, ...this.granted],
      deny: settings.deny,
      ...(settings.ask === undefined || settings.ask.length === 0 ? {} : { ask: settings.ask }),
      roots: this.roots,
      projectRoot: settings.projectRoot,
      home: settings.home,
      ...(settings.processSandbox?.active === true ? { osSandbox: true } : {}),
    };
  }

  /** What tool dispatch needs from this session for one assistant message's calls. */
  private dispatchDeps(run: Run, offered: ReadonlySet<string>, makeContext: DispatchDeps['makeContext']): DispatchDeps {
    const { settings } = this;
    return {
      registry: this.registry,
      offered,
      policy: () => this.policy(),
      intentContext: { cwd: settings.cwd, roots: this.roots },
      ask: this.deps.ask,
      grant: (rule, text, scope) => this.keepGrant(rule, text, scope),
      makeContext,
      runPolicy: (name) => settings.toolRuns?.[name],
      ...this.hooks.toolHooks(run),
      emit: run.emit,
      record: (c) => this.deps.store.later((s) => s.toolCalls.record({ sessionId: this.id, ...c })),
      beforeChange: () => run.checkpoint.before(),
      saveRecords: () => this.deps.store.flush(),
    };
  }

  /** Every run starts with `session_started`: the session, its folder, the run's model and tools. */
  private announce(run: Run, tools: ReadonlySet<string>): void {
    const { settings } = this;
    run.emit({
      type: 'session_started',
      sessionId: this.id,
      cwd: settings.cwd,
      model: run.chain.current,
      tools: [...tools],
      permissionMode: settings.permissionMode,
      resumed: this.resumed,
    });
  }

  /** Which MCP servers' instructions the system prompt holds: it is rebuilt only when they change. */
  private serverInstructionsKey(): string {
    return instructionsKey(this.registry.instructions());
  }

  /** The system prompt of the next request. */
  private async systemPrompt(): Promise<string> {
    return sessionSystemPrompt(this.settings, await this.git, this.registry.instructions());
  }

  private async loop(prompt: string | UserPart[], signal: AbortSignal, run: Run): Promise<void> {
    const { settings, registry } = this;
    const provider = this.deps.provider;
    const { emit } = run;
    // The driving program's own servers: their tools are in the run's first list and its init line.
    await this.ready;
    const first = run.tools(this.offeredTools(), registry);
    // The run's own model: the session's, or one given for this run alone.
    const runModel = run.chain.current;
    // The first request needs the provider's SDK: load it while hooks run and git answers, not after.
    provider.warm?.(runModel);

    this.announce(run, first.names);

    const content: UserPart[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    // Hooks may add context to the prompt (SessionStart once, UserPromptSubmit each time) or refuse it.
    const context: string[] = [];
    if (!this.started) {
      this.started = true;
      const source = this.resumed ? 'resume' : this.startSource;
      context.push(...(await this.hooks.run(run, 'SessionStart', { source }, signal, source)).context);
    }
    const promptText = content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
    const submit = await this.hooks.run(run, 'UserPromptSubmit', { prompt: promptText }, signal);
    if (submit.blockReason !== undefined || submit.stop !== undefined) {
      return this.finish(run, 'error', `a UserPromptSubmit hook blocked the prompt: ${submit.blockReason ?? submit.stop}`);
    }
    context.push(...submit.context);
    const userMessage: UserMessage = { role: 'user', content: context.length === 0 ? content : [...content, { type: 'text', text: context.join('\n\n') }] };
    recordPrompt(this.deps.store, this.id, userMessage, run.turn + 1, this.history.length === 0 ? { content } : undefined);
    this.history.push(userMessage);
    emit({ type: 'user_message', message: userMessage, checkpointId: checkpointId(run.turn + 1) });

    const system = await this.systemPrompt();
    // Built once per run: the tool context of every call in it.
    const contextSource: ContextSource = {
      sessionId: this.id,
      cwd: settings.cwd,
      roots: this.roots,
      bashTimeoutMs: settings.bashTimeoutMs,
      ...(settings.processSandbox === undefined ? {} : { processSandbox: settings.processSandbox }),
      readFiles: this.readFiles,
      todos: { get: () => this.todos, set: (items: TodoItem[]) => (this.todos = items) },
      store: () => this.deps.store,
      emit,
    };

    const turnContext: TurnContext = { run, first, system, instructionsKey: this.serverInstructionsKey(), contextSource, provider, runModel, signal };
    for (let resend = false; ; ) {
      const next = await this.step(turnContext, resend);
      if (next.kind === 'finish') return this.finish(run, next.reason, next.error, next.failure);
      resend = next.kind === 'resend';
    }
  }

  /**
   * One turn: a request, and the tool calls of its answer. What it leads to is
   * a Step; after an answer without tool calls, the AFTER_ANSWER table decides.
   * `resend`: the same turn goes again (after compacting a refused history), not counted twice.
   */
  private async step(t: TurnContext, resend: boolean): Promise<Step> {
    const { settings, registry } = this;
    const { run, first, contextSource, provider, runModel, signal } = t;
    const { emit } = run;
    if (signal.aborted) return finish('aborted');
    // A hook answered `continue: false`: the run ends after the step it judged.
    if (run.hookStop !== undefined) {
      emit({ type: 'notice', level: 'info', message: `stopped by a hook: ${run.hookStop}` });
      return finish('end_turn');
    }
    if (!resend && settings.maxTurns !== undefined && run.turns >= settings.maxTurns) return finish('max_turns');
    if (run.meter.exhausted()) return finish('budget');
    // The tool list can change between turns (ToolSearch found some; a drop-in tool came or went).
    const offered = run.turns === 0 || (resend && run.turns === 1) ? first : run.tools(this.offeredTools(), registry);
    // An MCP server that connected during the run: its instructions come with its tools, from this request on.
    if (run.turns > 0 && this.serverInstructionsKey() !== t.instructionsKey) {
      t.system = await this.systemPrompt();
      t.instructionsKey = this.serverInstructionsKey();
    }
    const { system } = t;
    if (needsCompaction(run.lastUsage, run.chain.current, this.deps.models)) {
      await this.compactHistory({ system, specs: offered.specs, signal, run, trigger: 'auto' });
      run.lastUsage = undefined;
    }

    if (!resend) run.turns++;
    const turn = run.turn;
    emit({ type: 'turn_started', turn });
    // On the run's current model; moves down the fallback chain when it keeps failing.
    const requestStarted = performance.now();
    const answering = run.turns === 1 ? prepareTools(offered.tools) : undefined; // stops the tools' preparation (prepare-tools.ts)
    const streamed = streamTurnOnChain({
      chain: run.chain,
      provider,
      request: {
        system,
        messages: mergeConsecutiveUsers(this.history),
        tools: offered.specs,
        maxTokens: settings.maxTokens,
        ...(settings.thinkingBudget ? { thinkingBudget: settings.thinkingBudget } : {}),
      },
      turn,
      signal,
      idleTimeoutMs: settings.idleTimeoutMs,
      retryBaseMs: settings.retryBaseMs,
      emit: (e) => {
        answering?.();
        if (e.type === 'tool_call_started') prepareCall(registry.get(e.name), run.checkpoint);
        emit(e);
      },
      spend: (spentOn, usage) => this.account(turn, usage, run, spentOn),
    });
    this.deps.store.flushSoon(); // the records kept since the last request, written while the model answers this one
    const { outcome, model } = await streamed;
    run.apiMs += performance.now() - requestStarted;

    this.account(turn, outcome.usage, run, model);
    run.lastUsage = outcome.usage;

    if (outcome.kind === 'error') {
      if (outcome.error.kind === 'aborted') {
        const kept = keepPartial(outcome.partial);
        if (kept) {
          this.persist(kept, turn);
          run.lastText = textOf(kept);
        }
        emit({ type: 'turn_aborted', turn });
        return finish('aborted');
      }
      // As in Claude Code, a conversation the API refuses as too long is compacted once and the turn sent again.
      if (outcome.error.reason === 'context_too_long' && !run.compactedOnRefusal && this.history.length > 1) {
        run.compactedOnRefusal = true;
        const done = await this.compactHistory({ system, specs: offered.specs, signal, run, trigger: 'auto' });
        run.lastUsage = undefined;
        if (done.ok) return { kind: 'resend' };
      }
      return finish('error', outcome.error.message, { status: outcome.error.status });
    }

    const message: AssistantMessage = outcome.message;
    this.persist(message, turn);
    emit({ type: 'assistant_message', turn, message, usage: outcome.usage, ...(model === runModel ? {} : { model }) });
    const text = textOf(message);
    if (text) run.lastText = text;

    const calls = message.content.filter((p): p is ToolUsePart => p.type === 'tool_use');
    if (calls.length === 0) {
      return afterAnswer({
        run,
        reason: outcome.reason,
        wantsStructuredOutput: settings.outputSchema !== undefined,
        remind: (reminder) => this.persist({ role: 'user', content: [{ type: 'text', text: reminder }] }, turn),
        stopHooks: (active) => this.hooks.run(run, this.depth > 0 ? 'SubagentStop' : 'Stop', { stop_hook_active: active }, signal),
      });
    }

    const results = await dispatchToolCalls(
      calls,
      this.dispatchDeps(run, offered.names, (toolUseId, approvedPaths, sig, sandbox) => makeToolContext(contextSource, { toolUseId, approvedPaths, signal: sig, sandbox })),
      signal,
    );
    await run.checkpoint.settle();
    this.persist({ role: 'user', content: results }, turn);
    emit({ type: 'tool_results', turn, results });
    if (signal.aborted) {
      emit({ type: 'turn_aborted', turn });
      return finish('aborted');
    }
    // The structured answer is the end: no request just to hear the model say it is done.
    return run.structuredOutput !== undefined ? finish('end_turn') : CONTINUE;
  }

  /**
   * Replaces the history with a model-written summary when the context is
   * nearly full. The old messages stay in the store (exports keep the whole
   * transcript); resume replays from the summary on. A failed summary is a
   * warning, not the end of the run. `manual` is the user's /compact, with
   * optional instructions for the summary; the notice gives the tokens the
   * history took (what the summary request read) and what the summary takes.
   */
  private async compactHistory(o: {
    system: string;
    specs: ToolSpec[];
    signal: AbortSignal;
    run: Run;
    trigger: 'auto' | 'manual';
    instructions?: string | undefined;
  }): Promise<{ ok: true; notice: string } | { ok: false; message: string }> {
    const { settings } = this;
    const instructions = o.instructions?.trim() ?? '';
    await this.hooks.run(o.run, 'PreCompact', { trigger: o.trigger, custom_instructions: instructions }, o.signal, o.trigger);
    const before = this.history.length;
    const started = performance.now();
    const outcome = await summarize(
      this.deps.provider,
      { model: o.run.chain.current, system: o.system, tools: o.specs, maxTokens: settings.maxTokens, messages: this.history },
      { signal: o.signal, idleTimeoutMs: settings.idleTimeoutMs, retryBaseMs: settings.retryBaseMs, ...(instructions ? { instructions } : {}) },
    );
    this.account(o.run.turn, outcome.usage, o.run, o.run.chain.current);
    if (!outcome.ok) {
      // A manual compaction's failure is its run's error; an automatic one's is a warning and the run goes on.
      if (o.trigger === 'auto') o.run.emit({ type: 'notice', level: 'warning', message: `could not compact the conversation: ${outcome.message}` });
      return { ok: false, message: outcome.message };
    }
    const message = summaryMessage(outcome.summary);
    const store = this.deps.store;
    const seq = store.messages.append(this.id, message, o.run.turn);
    store.sessions.setHistoryStart(this.id, seq);
    this.history = [message];
    const tokens = (n: number) => n.toLocaleString('en-US');
    const dropped = outcome.dropped === 0 ? '' : `, the oldest ${outcome.dropped} left out as they did not fit`;
    const notice = `context compacted: ${before} messages summarized${dropped} (${tokens(outcome.read)} → ${tokens(outcome.wrote)} tokens)`;
    o.run.emit({ type: 'notice', level: 'info', message: notice });
    o.run.emit({ type: 'compacted', trigger: o.trigger, preTokens: outcome.read, postTokens: outcome.wrote, durationMs: Math.round(performance.now() - started) });
    // As in Claude Code, SessionStart runs again after a compaction: what it adds follows the summary.
    const restart = await this.hooks.run(o.run, 'SessionStart', { source: 'compact' }, o.signal, 'compact');
    if (restart.context.length > 0) this.persist({ role: 'user', content: [{ type: 'text', text: restart.context.join('\n\n') }] }, o.run.turn);
    return { ok: true, notice };
  }

  /** Counts one request's usage on the model it was spent on (after a fallback, not the session's). */
  private account(turn: number, usage: Usage, run: Run, model: string): void {
    const cost = costUsd(model, usage, this.deps.models);
    run.spent(model, { usage, costUsd: cost, ...modelLimits(model, this.deps.models) });
    this.deps.store.later((s) => s.usage.record({ sessionId: this.id, turn, model, usage, costUsd: cost }));
    const s = this.sessionMeter;
    run.emit({ type: 'usage', turn, turnUsage: usage, sessionUsage: s.usage, turnCostUsd: cost, sessionCostUsd: s.costUsd, model });
  }
}
