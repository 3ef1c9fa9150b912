/**
 * The TUI's model of a conversation, fed by the session protocol's events. It keeps exactly one
 * live cell (the unfinished text block, the open thinking, the active tool
 * calls) and moves everything finished into the committed list, which the UI
 * prints once into native scrollback through `<Static>`.
 *
 * Text deltas are buffered and flushed on a timer (FLUSH_MS): one store
 * update per frame instead of one per token (ink-bun-spike §2).
 */
import type { Message } from '../../agent/index.ts';
import type { SessionEvent } from '../../protocol/index.ts';
import { hasMore } from '../render/tool-card.ts';
import { createStore, type Store } from './store.ts';
import { TextStream, type LiveText } from './text-stream.ts';
import type { PermissionRequest, StaticItem, StaticItemInput, TodoItem, ToolCallView } from './types.ts';
import { itemsFromHistory } from './history-items.ts';
import { SubagentBoard } from './subagents.ts';

export interface LiveState extends LiveText {
  thinking?: { text: string; startedAt: number };
  /** Tool calls not yet committed, in call order. */
  tools: ToolCallView[];
  /** The expand key toggles these while the thing is still live. */
  expanded: boolean;
}

export type Phase = 'idle' | 'requesting' | 'thinking' | 'responding' | 'tool' | 'waiting';

export interface RunState {
  phase: Phase;
  startedAt: number;
  /** Characters streamed this run, for a token estimate until real usage arrives. */
  streamedChars: number;
  /** Output tokens reported by the API this run. */
  outputTokens: number;
  retry?: { attempt: number; message: string };
  aborting: boolean;
}

export interface UsageState {
  /** Input + cache tokens of the last turn: what the context holds now. */
  contextTokens: number;
  costUsd: number;
}

export interface Committed {
  /** Bumped when printed items are dropped, so `<Static>` remounts with an empty list. */
  epoch: number;
  items: StaticItem[];
}

type Expandable = { kind: 'tool'; call: ToolCallView } | { kind: 'thinking'; text: string };

const EMPTY_LIVE: LiveState = { text: '', messageStarted: false, tools: [], expanded: false, codeLinesCommitted: 0 };
/**
 * How often streamed text reaches the screen. Each flush that completes a
 * line moves it into scrollback, which costs a redraw of the dynamic frame
 * and a React + Ink render. At 1,000 tokens/s (scripts/bench/tui-stream.ts),
 * 50 ms wrote 3.1x the text, 80 ms 2.5x, 100 ms 2.3x with the least CPU;
 * ten updates a second still reads as smooth streaming.
 */
const FLUSH_MS = 100;
const IDLE: RunState = { phase: 'idle', startedAt: 0, streamedChars: 0, outputTokens: 0, aborting: false };
const TERMINAL = new Set(['done', 'error', 'aborted', 'denied']);
/** Collapsed items the expand key can still open; older ones are forgotten so memory stays flat. */
const MAX_EXPANDABLES = 20;

export interface TranscriptOptions {
  flushMs?: number;
  now?: () => number;
}

export class Transcript {
  readonly committed: Store<Committed> = createStore<Committed>({ epoch: 0, items: [] });
  readonly live: Store<LiveState> = createStore<LiveState>(EMPTY_LIVE);
  readonly run: Store<RunState> = createStore<RunState>(IDLE);
  readonly todos: Store<TodoItem[]> = createStore<TodoItem[]>([]);
  readonly usage: Store<UsageState> = createStore<UsageState>({ contextTokens: 0, costUsd: 0 });
  /** Open permission requests; the first one is on screen. */
  readonly permissions: Store<PermissionRequest[]> = createStore<PermissionRequest[]>([]);
  /** Sub-agents of this process: the `task` cards' live status, and background agents after their card is committed. */
  readonly agents: SubagentBoard;

  private nextId = 1;
  private pendingText = '';
  private pendingThinking = '';
  private toolsDirty = false;
  private pendingChars = 0;
  private pendingPhase: Phase | undefined;
  private readonly stream = new TextStream((item) => this.commit(item));
  private timer: ReturnType<typeof setTimeout> | undefined;
  private committedThisTurn = false;
  private interruptedShown = false;
  private todosChanged = false;
  private expandables: Expandable[] = [];
  private readonly flushMs: number;
  readonly now: () => number;

  constructor(opts: TranscriptOptions = {}) {
    this.flushMs = opts.flushMs ?? FLUSH_MS;
    this.now = opts.now ?? Date.now;
    this.agents = new SubagentBoard({
      flushMs: this.flushMs,
      now: this.now,
      commit: (item) => this.commit(item),
      isLive: (id) => this.live.get().tools.some((t) => t.id === id),
    });
  }

  commit(item: StaticItemInput): void {
    const full = { ...item, id: this.nextId++ } as StaticItem;
    this.committedThisTurn = true;
    this.committed.update((c) => ({ epoch: c.epoch, items: [...c.items, full] }));
  }

  /** Drops the first `count` items, which `<Static>` has already printed. */
  dropPrinted(count: number): void {
    this.committed.update((c) => ({ epoch: c.epoch + 1, items: c.items.slice(count) }));
  }

  showHistory(messages: Message[]): void {
    for (const item of itemsFromHistory(messages)) {
      this.commit(item);
      if (item.kind === 'tool') this.remember({ kind: 'tool', call: item.call });
    }
  }

  /** A run starts: the prompt was already committed by the UI. */
  startRun(): void {
    this.interruptedShown = false;
    this.todosChanged = false;
    this.run.set({ ...IDLE, phase: 'requesting', startedAt: this.now() });
  }

  setAborting(): void {
    this.run.update((r) => (r.phase === 'idle' ? r : { ...r, aborting: true }));
    // Nothing may keep waiting for an answer once the turn is being stopped.
    this.permissions.set([]);
  }

  apply(e: SessionEvent): void {
    switch (e.type) {
      case 'session_started':
      case 'user_message':
      case 'tool_results':
      // The raw model stream is for stream-json; the TUI follows the deltas. A denial shows on the call's card.
      case 'model_stream':
      case 'permission_denied':
      // A `!cmd`'s result is the app model's to show: it also keeps it as context for the next prompt.
      case 'shell_finished':
      // Likewise a skill's expanded prompt: the app model sends it.
      case 'skill_expanded':
        return;
      case 'history':
        this.showHistory(e.messages);
        return;
      case 'turn_started':
        this.finishStreaming();
        this.committedThisTurn = false;
        this.live.update((l) => ({ ...l, messageStarted: false }));
        this.setPhase('requesting');
        return;
      case 'text_delta':
        if (this.live.get().thinking || this.pendingThinking) this.closeThinking();
        this.pendingText += e.text;
        this.countStreamed(e.text.length, 'responding');
        this.schedule();
        return;
      case 'thinking_delta':
        if (!this.live.get().thinking) this.live.update((l) => ({ ...l, thinking: { text: '', startedAt: this.now() } }));
        this.pendingThinking += e.thinking;
        this.countStreamed(e.thinking.length, 'thinking');
        this.schedule();
        return;
      case 'tool_call_started':
        this.finishStreaming();
        this.live.update((l) => ({ ...l, tools: [...l.tools, { id: e.toolUseId, name: e.name, json: '', status: 'streaming' }] }));
        this.setPhase('responding');
        return;
      case 'tool_call_delta':
        this.patchTool(e.toolUseId, (t) => ({ ...t, json: t.json + e.partialJson }), false);
        this.countStreamed(e.partialJson.length, 'responding');
        return;
      case 'tool_call_ready':
        this.patchTool(e.toolUseId, (t) => ({ ...t, input: e.input, status: 'pending' }));
        return;
      case 'retry':
        this.dropAttempt(e.attempt, e.delayMs, e.message);
        return;
      case 'model_fallback': {
        const partial = this.discardLive();
        this.commit({ kind: 'notice', level: 'warning', text: `${e.from}: ${e.reason} — switching to ${e.to}.${partial}` });
        this.committedThisTurn = false;
        return;
      }
      case 'assistant_message':
        this.finishStreaming();
        return;
      case 'permission_request':
        this.patchTool(e.toolUseId, (t) => ({ ...t, status: 'waiting' }));
        this.permissions.update((q) => [...q, e]);
        this.setPhase('waiting');
        return;
      case 'permission_resolved':
        this.permissions.update((q) => q.filter((r) => r.requestId !== e.requestId));
        return;
      case 'tool_started':
        this.patchTool(e.toolUseId, (t) => ({ ...t, status: 'running', startedAt: this.now() }));
        this.setPhase('tool');
        return;
      case 'tool_update':
        this.patchTool(e.toolUseId, (t) => ({ ...t, display: e.display }), false);
        return;
      case 'tool_finished':
        this.patchTool(e.toolUseId, (t) => ({
          ...t,
          // A call cut short by Esc reports an error result; show it as interrupted, not as a failure.
          status: t.status === 'denied' ? 'denied' : e.isError && this.run.get().aborting ? 'aborted' : e.isError ? 'error' : 'done',
          durationMs: e.durationMs,
          content: e.content,
          ...(e.display ? { display: e.display } : {}),
        }));
        this.commitFinishedTools();
        return;
      case 'todos':
        this.todosChanged = true;
        this.todos.set(e.items);
        return;
      case 'usage':
        this.usage.set({
          contextTokens: e.turnUsage.inputTokens + e.turnUsage.cacheReadInputTokens + e.turnUsage.cacheCreationInputTokens,
          costUsd: e.sessionCostUsd,
        });
        this.run.update((r) => ({ ...r, outputTokens: r.outputTokens + e.turnUsage.outputTokens, streamedChars: 0 }));
        return;
      case 'notice':
        this.commit({ kind: 'notice', level: e.level, text: e.message });
        return;
      case 'compacted':
        // The summary request's input was the old history; what the context holds now is the summary.
        this.usage.update((u) => ({ ...u, contextTokens: e.postTokens }));
        return;
      case 'hook_output':
        // A hook's stdout is for verbose output (Claude Code shows it only in its transcript view); the screen stays quiet.
        return;
      case 'turn_aborted':
        this.finishStreaming();
        this.endTools('aborted');
        if (!this.interruptedShown) this.commit({ kind: 'interrupted' });
        this.interruptedShown = true;
        return;
      case 'run_finished':
        this.finishStreaming();
        this.endTools('aborted');
        if (e.stopReason === 'aborted' && !this.interruptedShown) this.commit({ kind: 'interrupted' });
        if (e.stopReason === 'error') this.commit({ kind: 'notice', level: 'error', text: e.error ?? 'The run failed.' });
        if (e.stopReason === 'max_turns') this.commit({ kind: 'notice', level: 'warning', text: `Stopped after ${e.turns} turns (the turn limit).` });
        if (e.stopReason === 'budget') this.commit({ kind: 'notice', level: 'warning', text: `Stopped: the run reached its budget ($${e.costUsd.toFixed(2)}).` });
        this.endRun();
        return;
      case 'subagent_started':
      case 'subagent_finished':
        this.agents.applyEvent(e);
        return;
      case 'subagent_event': {
        // A sub-agent's own stream is summarised by its card; only its questions and notices reach the transcript.
        const { agentId, event } = this.agents.unwrap(e);
        if (event.type === 'permission_request') {
          this.permissions.update((q) => [...q, { ...event, agent: this.agents.label(agentId) }]);
          this.setPhase('waiting');
        } else if (event.type === 'permission_resolved') {
          this.apply(event);
        } else if (event.type === 'notice') {
          this.commit({ kind: 'notice', level: event.level, text: `${this.agents.label(agentId)}: ${event.message}` });
        }
        return;
      }
      default: {
        const never: never = e;
        return never;
      }
    }
  }

  /** The run's stream ended (normally after run_finished; also when it threw). */
  endRun(): void {
    this.finishStreaming();
    this.endTools('aborted');
    const todos = this.todos.get();
    if (this.todosChanged && todos.length > 0) this.commit({ kind: 'todos', items: todos });
    this.todosChanged = false;
    this.permissions.set([]);
    this.run.set(IDLE);
  }

  /** Answer given in the dialog: the card shows the outcome at once, before the agent confirms. */
  resolvePermission(requestId: string, allowed: boolean): void {
    const req = this.permissions.get().find((r) => r.requestId === requestId);
    this.permissions.update((q) => q.filter((r) => r.requestId !== requestId));
    if (req) this.patchTool(req.toolUseId, (t) => ({ ...t, status: allowed ? 'pending' : 'denied' }));
  }

  /**
   * The expand key: while thinking or a command is live, toggle its full view;
   * otherwise print the latest collapsed output in full (each press goes one further back).
   */
  expand(): Expandable | undefined {
    const live = this.live.get();
    if (live.thinking || live.tools.some((t) => t.status === 'running')) {
      this.live.set({ ...live, expanded: !live.expanded });
      return undefined;
    }
    return this.expandables.pop();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    let live = this.live.get();
    let changed = false;
    if (this.pendingThinking && live.thinking) {
      live = { ...live, thinking: { ...live.thinking, text: live.thinking.text + this.pendingThinking } };
      this.pendingThinking = '';
      changed = true;
    }
    if (this.pendingText) {
      live = { ...live, ...this.stream.append(live, this.pendingText) };
      this.pendingText = '';
      changed = true;
    }
    if (this.toolsDirty) {
      live = { ...live, tools: [...live.tools] };
      this.toolsDirty = false;
      changed = true;
    }
    if (changed) this.live.set(live);
    if (this.pendingPhase) {
      const chars = this.pendingChars;
      const phase = this.pendingPhase;
      this.pendingChars = 0;
      this.pendingPhase = undefined;
      this.run.update((r) => (r.phase === 'idle' ? r : { ...r, phase, retry: undefined, streamedChars: r.streamedChars + chars }));
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.agents.dispose();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), this.flushMs);
  }

  private setPhase(phase: Phase): void {
    this.run.update((r) => (r.phase === 'idle' || (r.phase === phase && !r.retry) ? r : { ...r, phase, retry: undefined }));
  }

  /** Counted per delta, published per flush: one store update per frame, not per token. */
  private countStreamed(chars: number, phase: Phase): void {
    this.pendingChars += chars;
    this.pendingPhase = phase;
    this.schedule();
  }

  private closeThinking(): void {
    this.flush();
    const live = this.live.get();
    if (!live.thinking) return;
    const text = live.thinking.text.trim();
    const seconds = Math.max(0, Math.round((this.now() - live.thinking.startedAt) / 1000));
    this.live.set({ ...live, thinking: undefined, expanded: false });
    if (text) {
      this.commit({ kind: 'thinking', text, seconds });
      this.remember({ kind: 'thinking', text });
    }
  }

  /** Everything streamed so far is final: commit the text block and close the thinking. */
  private finishStreaming(): void {
    this.closeThinking();
    this.flush();
    const live = this.live.get();
    if (live.text) this.live.set({ ...live, ...this.stream.finish(live) });
  }

  private patchTool(id: string, fn: (t: ToolCallView) => ToolCallView, publish = true): void {
    const live = this.live.get();
    const i = live.tools.findIndex((t) => t.id === id);
    if (i < 0) return;
    const tools = [...live.tools];
    tools[i] = fn(tools[i]!);
    if (publish) {
      this.toolsDirty = false;
      this.live.set({ ...live, tools });
    } else {
      // Deltas and live output wait for the next flush, like text.
      live.tools.splice(0, live.tools.length, ...tools);
      this.toolsDirty = true;
      this.schedule();
    }
  }

  private commitFinishedTools(): void {
    const live = this.live.get();
    let n = 0;
    // Cards go to scrollback in call order, so a finished call waits for the ones before it.
    while (n < live.tools.length && TERMINAL.has(live.tools[n]!.status)) n++;
    if (n === 0) return;
    for (const call of live.tools.slice(0, n)) {
      const agent = call.name === 'Task' ? this.agents.forTool(call.id) : undefined;
      this.commit({ kind: 'tool', call, ...(agent ? { agent: this.agents.card(agent) } : {}) });
      this.remember({ kind: 'tool', call });
    }
    this.live.set({ ...this.live.get(), tools: live.tools.slice(n) });
  }

  private endTools(status: 'aborted'): void {
    const live = this.live.get();
    if (live.tools.length === 0) return;
    this.live.set({ ...live, tools: live.tools.map((t) => (TERMINAL.has(t.status) ? t : { ...t, status })) });
    this.commitFinishedTools();
  }

  private remember(x: Expandable): void {
    if (x.kind === 'tool' && !hasMore(x.call)) return;
    this.expandables.push(x);
    if (this.expandables.length > MAX_EXPANDABLES) this.expandables.shift();
  }

  private dropAttempt(attempt: number, delayMs: number, message: string): void {
    const partial = this.discardLive();
    const seconds = (delayMs / 1000).toFixed(1);
    this.commit({ kind: 'notice', level: 'warning', text: `${message} — retrying in ${seconds} s (attempt ${attempt}).${partial}` });
    this.committedThisTurn = false;
    this.run.update((r) => (r.phase === 'idle' ? r : { ...r, phase: 'requesting', retry: { attempt, message } }));
  }

  /** The failed attempt's output will be sent again: drop what is still live; says what happens to what was committed. */
  private discardLive(): string {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pendingText = '';
    this.pendingThinking = '';
    this.stream.reset();
    const live = this.live.get();
    this.live.set({ ...live, text: '', codeTail: undefined, codeLinesCommitted: 0, thinking: undefined, tools: live.tools.filter((t) => t.status !== 'streaming' && t.status !== 'pending') });
    return this.committedThisTurn ? ' The partial answer above is discarded and will be sent again.' : '';
  }
}
