import { realpathSync } from 'node:fs';
import type { AssistantMessage, Message, Provider, ToolUsePart, Usage, UserMessage, UserPart } from '../providers/index.ts';
import { addUsage, textOf, ZERO_USAGE } from '../providers/index.ts';
import type { Store } from '../store/index.ts';
import type { AnyTool, TodoItem, ToolContext, ToolRegistry } from '../tools/index.ts';
import { AsyncQueue, errorMessage, MoatError } from '../util/index.ts';
import type { AgentEvent, RunStopReason } from './events.ts';
import { gitInfo, type GitInfo } from './git-info.ts';
import { mergeConsecutiveUsers, repairHistory } from './history.ts';
import type { AskPermission, PermissionPolicy, RememberRule } from './permission-gate.ts';
import { costUsd } from './pricing.ts';
import { CONTINUE_PROMPT, MAX_CONTINUATIONS, type AgentSettings } from './settings.ts';
import { buildSystemPrompt } from './system-prompt.ts';
import { dispatchToolCalls } from './tool-dispatch.ts';
import { keepPartial, streamTurn } from './turn.ts';

export interface AgentDeps {
  provider: Provider;
  registry: ToolRegistry;
  store: Store;
  settings: AgentSettings;
  /** Absent in -p mode: calls that would need a prompt are denied with a hint. */
  ask?: AskPermission;
  remember?: RememberRule;
}

export interface OpenOptions {
  /** A session id (or unique prefix) to resume, or 'latest' for the newest session in cwd. */
  resume?: string;
  parentId?: string;
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
  private sessionUsage: Usage;
  private sessionCost: number;

  private constructor(deps: AgentDeps, id: string, history: Message[], resumed: boolean, todos: TodoItem[], turnBase: number, usage: Usage, cost: number) {
    this.deps = deps;
    this.settings = { ...deps.settings, allow: [...deps.settings.allow], deny: [...deps.settings.deny] };
    this.id = id;
    this.history = history;
    this.resumed = resumed;
    this.todos = todos;
    this.turnBase = turnBase;
    this.sessionUsage = usage;
    this.sessionCost = cost;
    this.git = gitInfo(this.settings.cwd);
    this.roots = [this.settings.cwd, ...this.settings.addDirs].map(realOrSelf);
  }

  static open(deps: AgentDeps, opts: OpenOptions = {}): AgentSession {
    const { store, settings } = deps;
    if (opts.resume) {
      const row =
        opts.resume === 'latest'
          ? store.sessions.latestForCwd(settings.cwd)
          : store.sessions.require(store.sessions.resolvePrefix(opts.resume));
      if (!row) throw new MoatError('not_found', `no earlier session in ${settings.cwd} to continue`);
      const stored = store.messages.list(row.id).map((m) => m.message);
      const { messages, repaired } = repairHistory(stored);
      if (repaired) {
        // Persist the synthetic results so the stored history is valid too.
        for (const m of messages.slice(stored.length)) store.messages.append(row.id, m, 0);
      }
      const totals = store.usage.totals(row.id);
      return new AgentSession(deps, row.id, messages, true, row.todos ?? [], totals.turns, totals.usage, totals.costUsd);
    }
    const git = gitInfo(settings.cwd);
    const row = store.sessions.create({
      cwd: settings.cwd,
      projectRoot: settings.projectRoot,
      gitBranch: git?.branch ?? null,
      model: settings.model,
      permissionMode: settings.permissionMode,
      parentId: opts.parentId ?? null,
    });
    return new AgentSession(deps, row.id, [], false, [], 0, ZERO_USAGE, 0);
  }

  messages(): readonly Message[] {
    return this.history;
  }

  /** Tools offered to the model: plan mode offers only read-only ones. */
  offeredTools(): AnyTool[] {
    const all = this.deps.registry.list();
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
      .finally(() => queue.close());
    return queue;
  }

  private persist(message: Message, turn: number): void {
    this.history.push(message);
    this.deps.store.messages.append(this.id, message, turn);
    this.deps.store.sessions.touch(this.id);
  }

  private async loop(prompt: string | UserPart[], signal: AbortSignal, emit: (e: AgentEvent) => void, started: number): Promise<void> {
    const { provider, registry, store } = this.deps;
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
    });
    const specs = registry.specs(offered.map((t) => t.name));
    const policy: PermissionPolicy = {
      mode: settings.permissionMode,
      // The session's own list: an "allow always" answer holds for the rest of the session.
      allow: settings.allow,
      deny: settings.deny,
      roots: this.roots,
      projectRoot: settings.projectRoot,
      home: settings.home,
    };
    const offeredNames = new Set(offered.map((t) => t.name));

    let turns = 0;
    let runUsage = ZERO_USAGE;
    let runCost = 0;
    let continuations = 0;
    let lastText = '';
    const finish = (stopReason: RunStopReason, error?: string) => {
      this.turnBase += turns;
      store.sessions.setStatus(this.id, stopReason === 'aborted' ? 'aborted' : stopReason === 'error' ? 'error' : 'completed');
      emit({
        type: 'run_finished',
        stopReason,
        result: lastText,
        turns,
        usage: runUsage,
        costUsd: runCost,
        durationMs: Math.round(performance.now() - started),
        ...(error === undefined ? {} : { error }),
      });
    };

    for (;;) {
      if (signal.aborted) return finish('aborted');
      if (settings.maxTurns !== undefined && turns >= settings.maxTurns) return finish('max_turns');
      if (settings.maxBudgetUsd !== undefined && runCost >= settings.maxBudgetUsd) return finish('budget');

      turns++;
      const turn = this.turnBase + turns;
      emit({ type: 'turn_started', turn });
      const outcome = await streamTurn(
        provider,
        {
          model: settings.model,
          system,
          messages: mergeConsecutiveUsers(this.history),
          tools: specs,
          maxTokens: settings.maxTokens,
          ...(settings.thinkingBudget ? { thinkingBudget: settings.thinkingBudget } : {}),
        },
        turn,
        { signal, idleTimeoutMs: settings.idleTimeoutMs, retryBaseMs: settings.retryBaseMs },
        emit,
      );

      this.account(turn, outcome.usage, emit, (u, c) => {
        runUsage = addUsage(runUsage, u);
        runCost += c;
      });

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
      emit({ type: 'assistant_message', turn, message, usage: outcome.usage });
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
          makeContext: (toolUseId, approvedPaths, sig) => this.toolContext(toolUseId, approvedPaths, sig, emit),
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

  private account(turn: number, usage: Usage, emit: (e: AgentEvent) => void, addToRun: (u: Usage, c: number) => void): void {
    const cost = costUsd(this.settings.model, usage);
    this.sessionUsage = addUsage(this.sessionUsage, usage);
    this.sessionCost += cost;
    addToRun(usage, cost);
    this.deps.store.usage.record({ sessionId: this.id, turn, model: this.settings.model, usage, costUsd: cost });
    emit({ type: 'usage', turn, turnUsage: usage, sessionUsage: this.sessionUsage, turnCostUsd: cost, sessionCostUsd: this.sessionCost });
  }

  private toolContext(toolUseId: string, approvedPaths: string[], signal: AbortSignal, emit: (e: AgentEvent) => void): ToolContext {
    const { store } = this.deps;
    const settings = this.settings;
    return {
      cwd: settings.cwd,
      roots: this.roots,
      approvedPaths,
      signal,
      sessionId: this.id,
      toolUseId,
      bashTimeoutMs: settings.bashTimeoutMs,
      files: {
        markRead: (p) => this.readFiles.add(p),
        wasRead: (p) => this.readFiles.has(p),
      },
      todos: {
        get: () => this.todos,
        set: (items) => {
          this.todos = items;
          store.sessions.setTodos(this.id, items);
          emit({ type: 'todos', items });
        },
      },
      onUpdate: (display) => emit({ type: 'tool_update', toolUseId, display }),
    };
  }
}
