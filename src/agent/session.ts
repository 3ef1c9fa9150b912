import { realpathSync } from 'node:fs';
import type { AssistantMessage, Message, Provider, ToolSpec, ToolUsePart, Usage, UserMessage, UserPart } from '../providers/index.ts';
import { textOf, ZERO_USAGE } from '../providers/index.ts';
import type { Store } from '../store/index.ts';
import { ToolRegistry, type AnyTool, type TodoItem } from '../tools/index.ts';
import { AsyncQueue, errorMessage } from '../util/index.ts';
import { needsCompaction, summarize, summaryMessage } from './compaction.ts';
import { CostMeter } from './cost-meter.ts';
import type { AgentEvent, ModelUsage, RunStopReason } from './events.ts';
import { gitInfo, type GitInfo } from './git-info.ts';
import { mergeConsecutiveUsers } from './history.ts';
import type { AskPermission, PermissionPolicy, RememberRule } from './permission-gate.ts';
import { ModelChain, streamTurnOnChain, tally } from './fallback.ts';
import { costUsd, type ModelLookup } from './pricing.ts';
import { askWhileRunning, restoreSession, sessionRegistry, subagentHost, type Restored } from './session-tree.ts';
import { CONTINUE_PROMPT, MAX_CONTINUATIONS, type AgentSettings } from './settings.ts';
import type { SubagentSupport } from './subagents/index.ts';
import { buildSystemPrompt } from './system-prompt.ts';
import { makeToolContext } from './tool-context.ts';
import { dispatchToolCalls } from './tool-dispatch.ts';
import { keepPartial } from './turn.ts';

export interface AgentDeps {
  provider: Provider;
  registry: ToolRegistry;
  store: Store;
  settings: AgentSettings;
  /** Absent in -p mode: calls that would need a prompt are denied with a hint. */
  ask?: AskPermission;
  remember?: RememberRule;
  /** Sub-agent support (the process-wide manager, agent definitions); without it no task tools are offered. */
  subagents?: SubagentSupport;
  /** What each `provider/model` costs and holds (the model router, with the user's catalogue entries). */
  models?: ModelLookup;
}

export interface OpenOptions {
  /** A session id (or unique prefix) to resume, or 'latest' for the newest session in cwd. */
  resume?: string;
  parentId?: string;
  /** For a sub-agent's session: its agent id, its depth (parent + 1) and the meter its spending rolls up into. */
  agentId?: string;
  depth?: number;
  parentMeter?: CostMeter;
  /** False: no task tools even with sub-agent support (a sub-agent whose tools did not list task). */
  allowSubagents?: boolean;
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * A conversation: its history, its tools, and the loop that runs it. Every
 * finished message is persisted the moment it finishes, so a crash or a kill
 * loses at most the message in flight.
 */
export class AgentSession {
  readonly id: string;
  readonly resumed: boolean;
  private history: Message[];
  private readonly deps: AgentDeps;
  /** A copy: the model, the mode and the allow rules can change during a session (TUI). */
  private readonly settings: AgentSettings;
  private readonly git: GitInfo | undefined;
  private readonly roots: string[];
  private readonly readFiles = new Set<string>();
  private todos: TodoItem[];
  private turnBase: number;
  /** Everything this session and its sub-agents spent; a run's meter adds into it. */
  private readonly sessionMeter: CostMeter;
  private runMeter: CostMeter | undefined;
  /** The current run's event sink: sub-agents' events are forwarded into it. */
  private activeEmit: ((e: AgentEvent) => void) | undefined;
  private readonly registry: ToolRegistry;

  private constructor(deps: AgentDeps, r: Restored, opts: OpenOptions, git: GitInfo | undefined) {
    this.deps = deps;
    this.settings = { ...deps.settings, allow: [...deps.settings.allow], deny: [...deps.settings.deny] };
    this.id = r.id;
    this.history = r.history;
    this.resumed = r.resumed;
    this.todos = r.todos;
    this.turnBase = r.turnBase;
    this.sessionMeter = new CostMeter(undefined, opts.parentMeter, { usage: r.usage, costUsd: r.costUsd });
    this.git = git;
    this.roots = [this.settings.cwd, ...this.settings.addDirs].map(realOrSelf);
    const depth = opts.depth ?? 0;
    const host = subagentHost(deps.subagents, depth, opts.allowSubagents ?? true, {
      sessionId: this.id,
      settings: () => ({ ...this.settings, allow: [...this.settings.allow], deny: [...this.settings.deny] }),
      offeredTools: () => this.offeredTools(),
      emit: (e) => this.activeEmit?.(e),
      meter: () => this.runMeter ?? this.sessionMeter,
      openChild: (spec) =>
        AgentSession.open(
          {
            ...this.deps,
            registry: new ToolRegistry(spec.tools),
            settings: spec.settings,
            ask: askWhileRunning(this.deps.ask, () => this.activeEmit !== undefined),
          },
          { parentId: this.id, agentId: spec.agentId, depth: depth + 1, parentMeter: spec.parentMeter, allowSubagents: spec.allowSubagents },
        ),
    });
    this.registry = sessionRegistry(deps.registry, host);
  }

  static open(deps: AgentDeps, opts: OpenOptions = {}): AgentSession {
    const { store, settings } = deps;
    // Three git processes: run them once per session, not per use.
    const git = gitInfo(settings.cwd);
    if (opts.resume) return new AgentSession(deps, restoreSession(store, settings.cwd, opts.resume), opts, git);
    const row = store.sessions.create({
      cwd: settings.cwd,
      projectRoot: settings.projectRoot,
      gitBranch: git?.branch ?? null,
      model: settings.model,
      permissionMode: settings.permissionMode,
      parentId: opts.parentId ?? null,
      agentId: opts.agentId ?? null,
    });
    return new AgentSession(deps, { id: row.id, history: [], resumed: false, todos: [], turnBase: 0, usage: ZERO_USAGE, costUsd: 0 }, opts, git);
  }

  messages(): readonly Message[] {
    return this.history;
  }

  /** Tools offered to the model: plan mode offers only read-only ones. */
  offeredTools(): AnyTool[] {
    // Issue 4 (WASM tools): `offered` follows drop-in tools as they come and go, and past 20 tools offers the core + tool_search + what it found.
    const all = this.registry.offered(this.id);
    return this.settings.permissionMode === 'plan' ? all.filter((t) => t.effect === 'read') : all;
  }

  currentSettings(): Readonly<AgentSettings> {
    return this.settings;
  }

  /** Takes effect from the next model request. */
  setModel(model: string): void {
    this.settings.model = model;
    this.deps.store.sessions.setModel(this.id, model);
  }

  /** Takes effect from the next run (plan mode changes which tools are offered). */
  setPermissionMode(mode: AgentSettings['permissionMode']): void {
    this.settings.permissionMode = mode;
    this.deps.store.sessions.setPermissionMode(this.id, mode);
  }

  /** Runs one user prompt to completion; the events end with exactly one `run_finished`. */
  run(prompt: string | UserPart[], signal: AbortSignal): AsyncIterable<AgentEvent> {
    const queue = new AsyncQueue<AgentEvent>();
    const started = performance.now();
    const emit = (e: AgentEvent) => queue.push(e);
    this.activeEmit = emit;
    this.loop(prompt, signal, emit, started)
      .catch((e: unknown) => {
        emit({
          type: 'run_finished',
          stopReason: 'error',
          result: '',
          turns: 0,
          usage: ZERO_USAGE,
          costUsd: 0,
          durationMs: Math.round(performance.now() - started),
          error: errorMessage(e),
        });
      })
      .finally(() => {
        this.activeEmit = undefined;
        this.runMeter = undefined;
        queue.close();
      });
    return queue;
  }

  private persist(message: Message, turn: number): void {
    this.history.push(message);
    this.deps.store.messages.append(this.id, message, turn);
    this.deps.store.sessions.touch(this.id);
  }

  private async loop(prompt: string | UserPart[], signal: AbortSignal, emit: (e: AgentEvent) => void, started: number): Promise<void> {
    const { provider, store } = this.deps;
    const registry = this.registry;
    const settings = this.settings;
    const offered = this.offeredTools();
    emit({
      type: 'session_started',
      sessionId: this.id,
      cwd: settings.cwd,
      model: settings.model,
      tools: offered.map((t) => t.name),
      permissionMode: settings.permissionMode,
      resumed: this.resumed,
    });

    const content: UserPart[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    const userMessage: UserMessage = { role: 'user', content };
    if (this.history.length === 0) {
      const title = content.find((p) => p.type === 'text')?.text.split('\n')[0]?.slice(0, 80);
      if (title) store.sessions.setTitle(this.id, title);
    }
    store.sessions.setStatus(this.id, 'active');
    this.persist(userMessage, this.turnBase + 1);
    emit({ type: 'user_message', message: userMessage });

    const system = buildSystemPrompt({
      cwd: settings.cwd,
      addDirs: settings.addDirs,
      git: this.git,
      override: settings.systemPrompt,
      append: settings.appendSystemPrompt,
      // Skills and agent definitions: listed by name and description only (skills engineer).
      skills: settings.skills,
      agents: settings.agents,
    });
    let specs = registry.specs(offered.map((t) => t.name));
    const policy: PermissionPolicy = {
      mode: settings.permissionMode,
      // The session's own list: an "allow always" answer holds for the rest of the session.
      allow: settings.allow,
      deny: settings.deny,
      roots: this.roots,
      projectRoot: settings.projectRoot,
      home: settings.home,
    };
    let offeredNames = new Set(offered.map((t) => t.name));

    let turns = 0;
    // Sub-agents started in this run add their spending here too: totals and the budget cover the tree.
    const meter = new CostMeter(settings.maxBudgetUsd, this.sessionMeter);
    this.runMeter = meter;
    let continuations = 0;
    let lastText = '';
    // The last request's usage tells how full the context is (see compaction.ts).
    let lastUsage: Usage | undefined;
    // The run moves down the fallback chain when a model keeps failing, and stays there.
    const chain = new ModelChain(settings.model, settings.fallbackModels);
    const perModel = new Map<string, ModelUsage>();
    const finish = (stopReason: RunStopReason, error?: string) => {
      this.turnBase += turns;
      store.sessions.setStatus(this.id, stopReason === 'aborted' ? 'aborted' : stopReason === 'error' ? 'error' : 'completed');
      emit({
        type: 'run_finished',
        stopReason,
        result: lastText,
        turns,
        usage: meter.usage,
        costUsd: meter.costUsd,
        durationMs: Math.round(performance.now() - started),
        ...(error === undefined ? {} : { error }),
        ...(perModel.size === 0 ? {} : { modelUsage: Object.fromEntries(perModel) }),
      });
    };

    for (;;) {
      if (signal.aborted) return finish('aborted');
      if (settings.maxTurns !== undefined && turns >= settings.maxTurns) return finish('max_turns');
      if (meter.exhausted()) return finish('budget');
      if (needsCompaction(lastUsage, chain.current, this.deps.models)) {
        await this.compact({ system, specs, signal, emit, meter, turn: this.turnBase + turns, model: chain.current, perModel });
        lastUsage = undefined;
      }

      turns++;
      if (turns > 1) {
        // Issue 4 (WASM tools): the tool list can change between turns (tool_search found some; a drop-in tool was added or removed).
        const now = this.offeredTools();
        specs = registry.specs(now.map((t) => t.name));
        offeredNames = new Set(now.map((t) => t.name));
      }
      const turn = this.turnBase + turns;
      emit({ type: 'turn_started', turn });
      const spend = (model: string, usage: Usage) => tally(perModel, model, usage, this.account(turn, usage, emit, meter, model));
      const { outcome, model } = await streamTurnOnChain(
        chain,
        provider,
        {
          system,
          messages: mergeConsecutiveUsers(this.history),
          tools: specs,
          maxTokens: settings.maxTokens,
          ...(settings.thinkingBudget ? { thinkingBudget: settings.thinkingBudget } : {}),
        },
        turn,
        { signal, idleTimeoutMs: settings.idleTimeoutMs, retryBaseMs: settings.retryBaseMs },
        emit,
        spend,
      );

      spend(model, outcome.usage);
      lastUsage = outcome.usage;

      if (outcome.kind === 'error') {
        if (outcome.error.kind === 'aborted') {
          const kept = keepPartial(outcome.partial);
          if (kept) {
            this.persist(kept, turn);
            lastText = textOf(kept);
          }
          emit({ type: 'turn_aborted', turn });
          return finish('aborted');
        }
        return finish('error', outcome.error.message);
      }

      const message: AssistantMessage = outcome.message;
      this.persist(message, turn);
      emit({ type: 'assistant_message', turn, message, usage: outcome.usage, ...(model === settings.model ? {} : { model }) });
      const text = textOf(message);
      if (text) lastText = text;

      const calls = message.content.filter((p): p is ToolUsePart => p.type === 'tool_use');
      if (calls.length === 0) {
        if (outcome.reason === 'max_tokens' && continuations < MAX_CONTINUATIONS) {
          continuations++;
          this.persist({ role: 'user', content: [{ type: 'text', text: CONTINUE_PROMPT }] }, turn);
          continue;
        }
        return finish('end_turn');
      }

      const results = await dispatchToolCalls(
        calls,
        {
          registry,
          offered: offeredNames,
          policy,
          intentContext: { cwd: settings.cwd, roots: this.roots },
          ask: this.deps.ask,
          remember: this.deps.remember,
          makeContext: (toolUseId, approvedPaths, sig) =>
            makeToolContext(
              {
                sessionId: this.id,
                cwd: settings.cwd,
                roots: this.roots,
                bashTimeoutMs: settings.bashTimeoutMs,
                readFiles: this.readFiles,
                todos: { get: () => this.todos, set: (items) => (this.todos = items) },
                store,
                emit,
              },
              toolUseId,
              approvedPaths,
              sig,
            ),
          emit,
          record: (c) => store.toolCalls.record({ sessionId: this.id, ...c }),
        },
        signal,
      );
      this.persist({ role: 'user', content: results }, turn);
      emit({ type: 'tool_results', turn, results });
      if (signal.aborted) {
        emit({ type: 'turn_aborted', turn });
        return finish('aborted');
      }
    }
  }

  /**
   * Replaces the history with a model-written summary when the context is
   * nearly full. The old messages stay in the store (exports keep the whole
   * transcript); resume replays from the summary on. A failed summary is a
   * warning, not the end of the run.
   */
  private async compact(o: {
    system: string;
    specs: ToolSpec[];
    signal: AbortSignal;
    emit: (e: AgentEvent) => void;
    meter: CostMeter;
    turn: number;
    model: string;
    perModel: Map<string, ModelUsage>;
  }): Promise<void> {
    const { settings } = this;
    const before = this.history.length;
    const outcome = await summarize(
      this.deps.provider,
      { model: o.model, system: o.system, tools: o.specs, maxTokens: settings.maxTokens, messages: this.history },
      { signal: o.signal, idleTimeoutMs: settings.idleTimeoutMs, retryBaseMs: settings.retryBaseMs },
    );
    tally(o.perModel, o.model, outcome.usage, this.account(o.turn, outcome.usage, o.emit, o.meter, o.model));
    if (!outcome.ok) {
      o.emit({ type: 'notice', level: 'warning', message: `could not compact the conversation: ${outcome.message}` });
      return;
    }
    const message = summaryMessage(outcome.summary);
    const seq = this.deps.store.messages.append(this.id, message, o.turn);
    this.deps.store.sessions.setHistoryStart(this.id, seq);
    this.history = [message];
    o.emit({ type: 'notice', level: 'info', message: `context compacted: ${before} messages summarized` });
  }

  /** Counts one request's usage on the model it was spent on; returns its cost. */
  private account(turn: number, usage: Usage, emit: (e: AgentEvent) => void, meter: CostMeter, model: string): number {
    const cost = costUsd(model, usage, this.deps.models);
    meter.add(usage, cost);
    this.deps.store.usage.record({ sessionId: this.id, turn, model, usage, costUsd: cost });
    const s = this.sessionMeter;
    emit({ type: 'usage', turn, turnUsage: usage, sessionUsage: s.usage, turnCostUsd: cost, sessionCostUsd: s.costUsd, model });
    return cost;
  }
}
