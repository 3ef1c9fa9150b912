/**
 * The interactive session's behaviour, outside React: sending prompts,
 * running `!commands` and slash commands, interrupting, answering permission
 * requests, cycling the mode. Components only draw its stores; the key router
 * calls its methods. Keeping it here makes every behaviour testable without a
 * terminal.
 */
import type { PermissionMode } from '../contracts/index.ts';
import type { PermissionDecision } from '../agent/index.ts';
import type { SessionEvent, SkillExpandedEvent } from '../protocol/index.ts';
import { errorMessage } from '../util/index.ts';
import { COMMANDS, isBuiltinCommand, runSlashCommand, type CommandContext } from './commands/slash-commands.ts';
import type { SessionPort, SessionQueries, TuiClient, TuiLifecycle } from './session-port.ts';
import type { ShellResult, TuiInfo } from './views.ts';
import type { Keymap } from './keymap.ts';
import { completeCommand, completeFile, completeModel, mentionedFiles, mentionedResources, type CommandSpec } from './state/completion.ts';
import { EMPTY_EDITOR, type EditorState } from './state/line-editor.ts';
import { Elicitations } from './state/elicitations.ts';
import { createStore, type Store } from './state/store.ts';
import { Transcript } from './state/transcript.ts';
import { initialUi, type Picker, type UiState } from './state/ui-state.ts';

export interface AppModelOptions {
  client: TuiClient;
  keymap: Keymap;
  /** Leaves the app (the caller unmounts Ink and exits the process). */
  exit: () => void;
  flushMs?: number;
  now?: () => number;
}

const MODE_CYCLE: PermissionMode[] = ['default', 'acceptEdits', 'plan'];
const EXIT_WINDOW_MS = 2000;
/** Esc Esc on an empty prompt opens /rewind: the second press within this long. */
const REWIND_ESCAPE_WINDOW_MS = 1000;

export class AppModel {
  readonly transcript: Transcript;
  readonly ui: Store<UiState>;
  /** MCP servers' questions: the form on screen and the ones waiting. */
  readonly elicitations: Elicitations;
  /** Where every change of state goes, as a session operation. */
  readonly session: SessionPort;
  /** What the UI reads. */
  readonly queries: SessionQueries;
  private readonly lifecycle: TuiLifecycle;
  readonly keymap: Keymap;
  /** Built-in commands, then the skills (a skill cannot shadow a built-in): what `/` completes. */
  readonly commands: CommandSpec[];
  private readonly exitApp: () => void;
  private readonly now: () => number;
  private abort: AbortController | undefined;
  private shellAbort: AbortController | undefined;
  /** When Esc was last pressed on an empty, idle prompt. */
  private lastEscape = Number.NEGATIVE_INFINITY;
  private readonly queued: string[] = [];
  private shellContext: ShellResult[] = [];
  private loadedHistory: string[] | undefined;
  /** Earlier prompts, read on first use: reading them opens the store, which the first frame does not need. */
  private get history(): string[] {
    this.loadedHistory ??= this.queries.promptHistory();
    return this.loadedHistory;
  }
  private files: string[] = [];
  private fileSet = new Set<string>();
  private readonly modes: PermissionMode[];
  private filesTimer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribeAgents: (() => void) | undefined;
  private unsubscribeMcp: (() => void) | undefined;
  private unsubscribeNotices: (() => void) | undefined;
  private unsubscribeElicitation: (() => void) | undefined;
  /** MCP servers whose failure was already said: each is said once. */
  private readonly mcpReported = new Set<string>();
  /** Servers approved here that have not connected yet: their connecting is said once. */
  private readonly mcpStarting = new Set<string>();
  /** `server:uri` of every listed MCP resource, offered by `@` completion after the files. */
  private resourceRefs: string[] = [];
  /** Pickers opened while one is showing wait their turn. */
  private readonly pickerQueue: Omit<Picker, 'index'>[] = [];
  /** Settles when the current run (or shell command) is over; tests await it. */
  idle: Promise<void> = Promise.resolve();

  constructor(opts: AppModelOptions) {
    ({ session: this.session, queries: this.queries, lifecycle: this.lifecycle } = opts.client);
    this.keymap = opts.keymap;
    this.exitApp = opts.exit;
    this.now = opts.now ?? Date.now;
    this.transcript = new Transcript({ flushMs: opts.flushMs, now: this.now });
    const info = this.queries.info();
    this.ui = createStore(initialUi(info));
    this.elicitations = new Elicitations({
      blocked: () => this.transcript.permissions.get().length > 0,
      onWithdrawn: (server) => this.transcript.commit({ kind: 'notice', level: 'info', text: `MCP server ${server} withdrew its question (cancelled or timed out).` }),
    });
    // A form waiting for a permission dialog opens once the dialog is answered.
    this.transcript.permissions.subscribe(() => this.elicitations.advance());
    this.modes = info.permissionMode === 'bypassPermissions' ? [...MODE_CYCLE, 'bypassPermissions'] : MODE_CYCLE;
    const skills = this.queries.skills().filter((s) => !isBuiltinCommand(s.name));
    this.commands = [...COMMANDS, ...skills.map((s) => ({ name: s.name, description: s.description, ...(s.args ? { args: s.args } : {}), skill: true }))];
  }

  /** MCP servers changed: their prompts become commands, their resources `@` completions, a failure one notice. */
  private mcpChanged(): void {
    const servers = this.queries.mcpServers();
    const prompts: CommandSpec[] = servers.flatMap((srv) =>
      srv.prompts.map((p) => ({
        name: p.command,
        description: p.description ?? `prompt of ${srv.name}`,
        ...(p.args.length > 0 ? { args: p.args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ') } : {}),
        mcpPrompt: true,
      })),
    );
    const kept = this.commands.filter((c) => c.mcpPrompt !== true);
    this.commands.splice(0, this.commands.length, ...kept, ...prompts);
    this.resourceRefs = servers.flatMap((srv) => srv.resources.map((r) => r.ref));
    for (const srv of servers) {
      if (srv.status === 'connected' && this.mcpStarting.delete(srv.name)) {
        this.transcript.commit({ kind: 'notice', level: 'info', text: `MCP server ${srv.name} connected: ${srv.tools.length} tools, ${srv.prompts.length} prompts, ${srv.resources.length} resources.` });
      }
      const failed = srv.status === 'failed' || srv.status === 'needs-auth';
      if (!failed) {
        this.mcpReported.delete(srv.name);
        continue;
      }
      if (this.mcpReported.has(srv.name)) continue;
      this.mcpReported.add(srv.name);
      const hint = srv.status === 'needs-auth' ? `moat mcp login ${srv.name}` : `/mcp reconnect ${srv.name} tries again`;
      this.transcript.commit({ kind: 'notice', level: 'warning', text: `MCP server ${srv.name} ${srv.status === 'needs-auth' ? 'needs a login' : 'failed'}: ${srv.error ?? 'no reason given'} (${hint})` });
    }
    this.updateCompletion();
  }

  /** A project's MCP servers start only once the user approves them for this folder. */
  private askMcpApproval(): void {
    const waiting = this.queries.mcpServers().filter((srv) => srv.status === 'needs-approval');
    if (waiting.length === 0) return;
    const names = waiting.map((srv) => srv.name);
    const origins = [...new Set(waiting.map((srv) => srv.origin))].join(', ');
    this.openPicker({
      title: `${origins} wants to start MCP server${names.length === 1 ? '' : 's'} ${names.join(', ')} on this machine. Start ${names.length === 1 ? 'it' : 'them'}?`,
      items: [
        { label: 'Approve and start', value: 'approve', detail: 'remembered for this folder; each runs inside the OS sandbox' },
        { label: 'Not now', value: 'no', detail: 'asked again next time; /mcp approve starts them later' },
      ],
      onSelect: (v) => {
        if (v !== 'approve') return;
        for (const n of names) this.mcpStarting.add(n);
        try {
          this.session.submit({ type: 'approve_mcp_servers', names });
        } catch (e) {
          this.transcript.commit({ kind: 'notice', level: 'error', text: errorMessage(e) });
          return;
        }
        this.transcript.commit({ kind: 'notice', level: 'info', text: `Approved MCP server${names.length === 1 ? '' : 's'} ${names.join(', ')} for this folder; starting.` });
      },
    });
  }

  /** The banner, the resumed conversation and the file list (the prompt history is read on first use). */
  start(): void {
    this.transcript.commit({ kind: 'banner', info: this.queries.info() });
    const earlier = this.queries.initialMessages();
    if (earlier.length > 0) {
      this.transcript.showHistory(earlier);
      this.transcript.commit({ kind: 'notice', level: 'info', text: `Resumed session ${this.queries.info().sessionId.slice(0, 8)}.` });
    }
    // Background sub-agents go on between runs: their cards follow the manager, not the run stream.
    this.unsubscribeAgents = this.queries.onSubagentUpdate((u) => this.transcript.agents.applyUpdate(u));
    // Listing files spawns git: not before the first frame is up.
    this.filesTimer = setTimeout(() => this.refreshFiles(), 200);
    this.unsubscribeMcp = this.queries.onMcpChange(() => this.mcpChanged());
    this.unsubscribeNotices = this.queries.onNotice((level, text) => this.transcript.commit({ kind: 'notice', level, text }));
    this.unsubscribeElicitation = this.lifecycle.onElicitation((request, signal) => this.elicitations.ask(request, signal));
    this.mcpChanged();
    this.askTrust();
    this.askMcpApproval();
  }

  /** A project whose settings would grant something asks once, at start: trust this folder? */
  private askTrust(): void {
    const grants = this.queries.untrustedGrants();
    if (grants.length === 0) return;
    this.openPicker({
      title: `This folder's settings want to grant ${grants.join('; ')}. Trust this folder?`,
      items: [
        { label: 'Trust this folder', value: 'trust', detail: 'its allow rules, folders, env and hooks apply at once' },
        { label: 'Not now', value: 'no', detail: 'only its deny and ask rules apply' },
      ],
      onSelect: (v) => {
        if (v !== 'trust') return;
        this.session.submit({ type: 'trust_project' });
        this.transcript.commit({ kind: 'notice', level: 'info', text: 'Trusted this folder: its allow rules, folders, env and hooks apply now (moat trust --revoke takes it back).' });
      },
    });
  }

  refreshFiles(): void {
    this.queries
      .listFiles()
      .then((files) => {
        this.files = files;
        this.fileSet = new Set(files);
        this.updateCompletion();
      })
      .catch((e: unknown) => this.lifecycle.log(`listing files failed: ${errorMessage(e)}`));
  }

  isBusy(): boolean {
    return this.abort !== undefined || this.shellAbort !== undefined;
  }

  // ── editing ────────────────────────────────────────────────────────────

  setEditor(editor: EditorState, keepHistory = false): void {
    this.ui.update((u) => ({ ...u, editor, ...(keepHistory ? {} : { historyIndex: undefined, draft: undefined }) }));
    this.updateCompletion();
  }

  updateCompletion(): void {
    const u = this.ui.get();
    const { value, cursor } = u.editor;
    const completion =
      completeCommand(value, cursor, this.commands) ??
      completeModel(value, cursor, () => this.queries.models()) ??
      completeFile(value, cursor, this.resourceRefs.length === 0 ? this.files : [...this.files, ...this.resourceRefs]);
    const same = completion && u.completion && completion.start === u.completion.start && completion.options.length === u.completion.options.length;
    this.ui.set({ ...u, completion, completionIndex: same ? u.completionIndex : 0 });
  }

  /** ↑/↓ through earlier prompts; the unsent text comes back after the newest. */
  browseHistory(dir: -1 | 1): void {
    const u = this.ui.get();
    if (this.history.length === 0) return;
    const current = u.historyIndex ?? this.history.length;
    const next = Math.min(this.history.length, Math.max(0, current + dir));
    if (next === current) return;
    const draft = u.historyIndex === undefined ? u.editor.value : u.draft;
    const value = next === this.history.length ? (draft ?? '') : (this.history[next] ?? '');
    this.ui.set({ ...u, editor: { value, cursor: value.length }, historyIndex: next === this.history.length ? undefined : next, draft, completion: undefined });
  }

  // ── sending ────────────────────────────────────────────────────────────

  /** Enter on the prompt. A prompt typed while the model works is queued and sent when it is done. */
  submit(): void {
    const text = this.ui.get().editor.value;
    if (!text.trim()) return;
    this.setEditor(EMPTY_EDITOR);
    this.rememberPrompt(text);
    if (this.isBusy()) {
      this.queued.push(text);
      this.transcript.commit({ kind: 'notice', level: 'info', text: `Queued: ${text.split('\n')[0]} — sent when the current turn ends.` });
      return;
    }
    this.dispatch(text);
  }

  private rememberPrompt(text: string): void {
    if (this.history[this.history.length - 1] !== text) this.history.push(text);
    try {
      this.session.submit({ type: 'add_prompt_history', text });
    } catch (e) {
      this.lifecycle.log(`saving prompt history failed: ${errorMessage(e)}`);
    }
  }

  private dispatch(text: string): void {
    const trimmed = text.trim();
    if (trimmed.startsWith('!')) {
      this.idle = this.runShell(trimmed.slice(1).trim());
    } else if (/^\/\S/.test(trimmed)) {
      this.runCommand(text);
    } else {
      this.idle = this.runPrompt(text);
    }
  }

  /** `/name args`: a built-in command, else a skill, else "unknown". `/etc/hosts is slow` is a prompt, not a command. */
  private runCommand(text: string): void {
    const trimmed = text.trim();
    const m = /^\/([A-Za-z0-9][\w.-]*)(?=\s|$)([\s\S]*)$/.exec(trimmed);
    if (!m) {
      this.idle = this.runPrompt(text);
      return;
    }
    const name = m[1] ?? '';
    if (name.startsWith('mcp__') && !isBuiltinCommand(name)) {
      this.idle = this.runMcpPrompt(text, name, (m[2] ?? '').trim());
      return;
    }
    if (isBuiltinCommand(name) || !this.commands.some((c) => c.skill && c.name === name)) {
      runSlashCommand(trimmed, this.commandContext());
      return;
    }
    this.idle = this.runSkill(text, name, (m[2] ?? '').trim());
  }

  /** A skill or custom command: its prompt (with any !`cmd` output) goes to the model; the transcript shows what was typed. */
  private async runSkill(text: string, name: string, args: string): Promise<void> {
    let expanded: SkillExpandedEvent | undefined;
    // Its !`cmd` lines may ask, as a Bash call does: the question shows here, and Esc withdraws it.
    const abort = new AbortController();
    this.shellAbort = abort;
    try {
      for await (const e of this.session.expandSkill(name, args, abort.signal)) {
        if (e.type === 'skill_expanded') expanded = e;
        else this.transcript.apply(e);
      }
    } catch (e) {
      this.transcript.commit({ kind: 'notice', level: 'warning', text: errorMessage(e) });
      return;
    } finally {
      this.shellAbort = undefined;
    }
    // A missing argument: the message is the usage line. Nothing is sent.
    if (expanded?.error !== undefined) {
      this.transcript.commit({ kind: 'notice', level: 'warning', text: expanded.error });
      return;
    }
    const prompt = expanded?.prompt;
    // Esc while its lines ran (or a question was open): nothing is sent.
    if (abort.signal.aborted) {
      this.transcript.commit({ kind: 'notice', level: 'info', text: `/${name} interrupted: nothing was sent.` });
      return;
    }
    if (prompt === undefined) {
      this.transcript.commit({ kind: 'notice', level: 'warning', text: `Unknown command /${name}. /help lists the commands and skills.` });
      return;
    }
    await this.runPrompt(text, prompt, expanded?.model);
  }

  /** `/mcp__server__prompt args`: the server's prompt goes to the model; the transcript shows what was typed. */
  private async runMcpPrompt(text: string, command: string, args: string): Promise<void> {
    let prompt: string;
    try {
      prompt = await this.queries.mcpPrompt(command, args);
    } catch (e) {
      this.transcript.commit({ kind: 'notice', level: 'warning', text: errorMessage(e) });
      return;
    }
    await this.runPrompt(text, prompt);
  }

  private next(): void {
    const text = this.queued.shift();
    if (text !== undefined) this.dispatch(text);
  }

  /**
   * `text` is shown and its @files attached; `sent` (a skill's expanded body) is what the model gets, when given,
   * and `model` (a custom command's) that run's model alone.
   */
  async runPrompt(text: string, sent = text, model?: string): Promise<void> {
    const t = this.transcript;
    t.commit({ kind: 'user', text });
    const attachments = mentionedFiles(text, this.fileSet);
    const servers = new Set(this.queries.mcpServers().map((srv) => srv.name));
    const resources = servers.size === 0 ? [] : mentionedResources(text, servers);
    const shellContext = this.shellContext;
    this.shellContext = [];
    await this.follow((signal) => this.session.run({ text: sent, attachments, shellContext, ...(resources.length > 0 ? { resources } : {}), ...(model === undefined ? {} : { model }) }, signal));
  }

  /** `/compact [instructions]`: a run of its own; its notice says how many tokens the history took before and after. */
  async runCompact(instructions: string): Promise<void> {
    this.transcript.commit({ kind: 'user', text: instructions ? `/compact ${instructions}` : '/compact' });
    await this.follow((signal) => this.session.compact(instructions || undefined, signal));
  }

  /** Shows one run's events until its end; Esc aborts it. */
  private async follow(events: (signal: AbortSignal) => AsyncIterable<SessionEvent>): Promise<void> {
    const t = this.transcript;
    const abort = new AbortController();
    this.abort = abort;
    t.startRun();
    try {
      for await (const event of events(abort.signal)) t.apply(event);
    } catch (e) {
      // The agent reports failures as events; reaching here is a bug below us. Say it in one line, log the rest.
      this.lifecycle.log(`run failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      t.commit({ kind: 'notice', level: 'error', text: `The run failed: ${errorMessage(e)}` });
    } finally {
      t.endRun();
      this.abort = undefined;
      this.next();
    }
  }

  async runShell(command: string): Promise<void> {
    if (!command) return;
    const abort = new AbortController();
    this.shellAbort = abort;
    this.transcript.run.set({ phase: 'tool', startedAt: this.now(), streamedChars: 0, outputTokens: 0, aborting: false });
    try {
      // Its permission events, if it asks, then its result.
      for await (const e of this.session.shell(command, abort.signal)) {
        if (e.type !== 'shell_finished') {
          this.transcript.apply(e);
          continue;
        }
        if (e.error !== undefined) {
          this.transcript.commit({ kind: 'notice', level: 'error', text: `!${command}: ${e.error}` });
          continue;
        }
        const result: ShellResult = { command: e.command, output: e.output, exitCode: e.exitCode, durationMs: e.durationMs };
        this.transcript.commit({ kind: 'shell', result });
        this.shellContext.push(result);
      }
    } catch (e) {
      this.transcript.commit({ kind: 'notice', level: 'error', text: `!${command}: ${errorMessage(e)}` });
    } finally {
      this.shellAbort = undefined;
      this.transcript.endRun();
      this.next();
    }
  }

  // ── control ────────────────────────────────────────────────────────────

  /** Esc: stop the turn; the partial answer stays, marked as interrupted. */
  interrupt(): boolean {
    if (this.shellAbort) {
      this.shellAbort.abort();
      return true;
    }
    if (!this.abort) return false;
    this.queued.length = 0;
    // Open permission requests do not watch the signal: answer them, or the agent would wait forever.
    for (const req of this.transcript.permissions.get()) {
      this.session.submit({ type: 'permission_answer', requestId: req.requestId, decision: { behavior: 'deny', message: 'The user interrupted the turn.' } });
    }
    // A server's question asked for the call being stopped would stay on screen, unanswerable: it is cancelled.
    this.elicitations.cancelAll();
    this.transcript.setAborting();
    this.abort.abort();
    return true;
  }

  /** Esc on an empty prompt with nothing running: a second one within a second opens /rewind. */
  escapeOnEmpty(): void {
    const now = this.now();
    if (now - this.lastEscape < REWIND_ESCAPE_WINDOW_MS) {
      this.lastEscape = Number.NEGATIVE_INFINITY;
      this.runCommand('/rewind');
    } else {
      this.lastEscape = now;
    }
  }

  /** Ctrl-C: interrupt or clear; a second press within 2 s exits. */
  ctrlC(): void {
    const u = this.ui.get();
    const now = this.now();
    if (now < u.exitArmedUntil) {
      this.exit();
      return;
    }
    this.ui.set({ ...u, exitArmedUntil: now + EXIT_WINDOW_MS });
    if (!this.interrupt() && u.editor.value) this.setEditor(EMPTY_EDITOR);
  }

  exit(): void {
    clearTimeout(this.filesTimer);
    this.unsubscribeAgents?.();
    this.unsubscribeMcp?.();
    this.unsubscribeNotices?.();
    this.unsubscribeElicitation?.();
    this.elicitations.cancelAll();
    this.interrupt();
    this.transcript.dispose();
    this.exitApp();
  }

  cycleMode(): void {
    const u = this.ui.get();
    const i = this.modes.indexOf(u.mode);
    const mode = this.modes[(i + 1) % this.modes.length] ?? 'default';
    this.session.submit({ type: 'set_permission_mode', mode });
    this.ui.set({ ...u, mode });
  }

  /** The answer to the permission dialog on screen. */
  answerPermission(decision: PermissionDecision): void {
    const req = this.transcript.permissions.get()[0];
    if (!req) return;
    this.transcript.resolvePermission(req.requestId, decision.behavior === 'allow');
    this.ui.update((u) => ({ ...u, dialog: { index: 0 } }));
    this.session.submit({ type: 'permission_answer', requestId: req.requestId, decision });
  }

  expand(): void {
    const x = this.transcript.expand();
    if (!x) return;
    if (x.kind === 'thinking') {
      this.transcript.commit({ kind: 'lines', lines: ['', ...x.text.split('\n')].map((l) => `  ${l}`) });
    } else {
      this.transcript.commit({ kind: 'tool', call: x.call, expanded: true });
    }
  }

  openPicker(picker: Omit<Picker, 'index'>): void {
    if (this.ui.get().picker !== undefined) {
      this.pickerQueue.push(picker);
      return;
    }
    this.ui.update((u) => ({ ...u, picker: { ...picker, index: 0 } }));
  }

  closePicker(choose: boolean): void {
    const picker = this.ui.get().picker;
    this.ui.update((u) => ({ ...u, picker: undefined }));
    const item = picker?.items[picker.index];
    if (choose && picker && item) picker.onSelect(item.value);
    const next = this.pickerQueue.shift();
    if (next !== undefined) this.openPicker(next);
  }

  setInfo(info: TuiInfo): void {
    this.ui.update((u) => ({ ...u, info, mode: info.permissionMode }));
  }

  private commandContext(): CommandContext {
    return {
      session: this.session,
      queries: this.queries,
      keymap: this.keymap,
      skills: this.commands.filter((c) => c.skill),
      mcpPrompts: this.commands.filter((c) => c.mcpPrompt),
      print: (lines) => this.transcript.commit({ kind: 'lines', lines }),
      notice: (level, text) => this.transcript.commit({ kind: 'notice', level, text }),
      openPicker: (p) => this.openPicker(p),
      prompt: (text) => {
        this.idle = this.runPrompt(text);
      },
      compact: (instructions) => {
        this.idle = this.runCompact(instructions);
      },
      setInfo: (info) => this.setInfo(info),
      showHistory: (id) => {
        try {
          this.session.submit({ type: 'resume', sessionId: id });
          const messages = this.queries.conversation();
          this.resetSession();
          this.setInfo(this.queries.info());
          this.transcript.commit({ kind: 'lines', lines: [`Resumed session ${id.slice(0, 8)}:`] });
          this.transcript.showHistory(messages);
        } catch (e) {
          this.transcript.commit({ kind: 'notice', level: 'error', text: errorMessage(e) });
        }
      },
      resetSession: () => this.resetSession(),
      exit: () => this.exit(),
      background: (work) => {
        work.catch((e: unknown) => this.transcript.commit({ kind: 'notice', level: 'error', text: errorMessage(e) }));
      },
    };
  }

  private resetSession(): void {
    this.shellContext = [];
    this.transcript.todos.set([]);
    this.transcript.usage.set({ contextTokens: 0, costUsd: 0 });
  }
}
