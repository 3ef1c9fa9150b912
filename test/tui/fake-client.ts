/**
 * A scripted TuiClient: each `run()` plays the next script of events,
 * optionally waiting on gates (permission answers, aborts) like the real
 * agent does; each session operation is recorded and changes what the
 * queries answer, as the real host would. One object plays all three parts
 * (session, queries, lifecycle) so a test can script and inspect it in one place.
 */
import type { PermissionMode } from '../../src/contracts/index.ts';
import type { OpAnswers, RequestOp, SessionEvent } from '../../src/protocol/index.ts';
import type { AgentInfo, MergeOutcome, Message, PermissionDecision, RewindOutcome, RewindPointView, RewindRequest } from '../../src/agent/index.ts';
import type {
  AgentDefinitionInfo,
  CostInfo,
  ElicitationAnswer,
  ElicitationHandler,
  ElicitationRequest,
  PermissionRuleView,
  HookView,
  McpServerView,
  PromptInput,
  SessionSummary,
  ShellResult,
  SkillInfo,
  SubagentUpdate,
  ToolInfo,
  TuiInfo,
  WorktreeView,
} from '../../src/tui/views.ts';
import type { SessionPort, SessionQueries, TuiClient, TuiLifecycle, TuiOp } from '../../src/tui/session-port.ts';

/** One step of a scripted run: an event, a pause, or a wait for the UI's permission answer. */
export type Step = SessionEvent | { wait: number } | { awaitPermission: string } | { awaitAbort: true } | { act: () => void } | { gate: string };

export class FakeClient implements TuiClient, SessionQueries, TuiLifecycle {
  readonly session: SessionPort = {
    submit: (op) => this.submit(op),
    request: (op) => this.request(op),
    run: (prompt, signal) => this.run(prompt, signal),
    compact: (instructions, signal) => this.compact(instructions, signal),
    shell: (command, signal) => this.shell(command, signal),
    expandSkill: (name, args) => this.expandSkill(name, args),
  };
  readonly queries: SessionQueries = this;
  readonly lifecycle: TuiLifecycle = this;
  infoValue: TuiInfo = {
    version: '0.1.0',
    model: 'claude-sonnet-4-5',
    cwd: '/work/project',
    gitBranch: 'main',
    permissionMode: 'default',
    sessionId: 'sess-0001-aaaa',
    contextWindow: 200_000,
  };
  scripts: Step[][] = [];
  prompts: PromptInput[] = [];
  decisions: { requestId: string; decision: PermissionDecision }[] = [];
  history: string[] = [];
  rules: PermissionRuleView[] = [{ rule: 'Bash(npm test:*)', behavior: 'allow', source: 'project' }];
  files = ['src/app.ts', 'src/tui/app.tsx', 'README.md', 'package.json'];
  sessions: SessionSummary[] = [];
  resumed: Record<string, Message[]> = {};
  earlier: Message[] = [];
  logs: string[] = [];
  modes: PermissionMode[] = [];
  shellResults: ShellResult[] = [];
  shutdowns = 0;
  skillList: (SkillInfo & { body?: string; required?: boolean })[] = [];
  definitions: AgentDefinitionInfo[] = [
    { name: 'general', description: 'General-purpose agent for multi-step tasks.' },
    { name: 'explore', description: 'Read-only codebase exploration.', tools: ['Read', 'Grep', 'Glob'] },
  ];
  agentList: AgentInfo[] = [];
  worktreeList: WorktreeView[] = [];
  /** What `mergeWorktree` answers. */
  mergeResult: MergeOutcome = { kind: 'merged', summary: ' a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)' };
  actions: string[] = [];
  /** A sub-agent that ends between the listing and the stop: the `stop_subagent` operation refuses it, as the host does. */
  endsBeforeStop = false;
  private agentListeners = new Set<(u: SubagentUpdate) => void>();
  private waiters = new Map<string, (d: PermissionDecision) => void>();
  private gates = new Map<string, () => void>();

  /** Lets a run waiting at `{ gate: name }` go on; false while it has not reached it yet. */
  release(name: string): boolean {
    const g = this.gates.get(name);
    this.gates.delete(name);
    g?.();
    return g !== undefined;
  }

  /** As the real manager would report it: the listing follows, the UI is told. */
  agentUpdate(u: SubagentUpdate): void {
    const i = this.agentList.findIndex((a) => a.agentId === u.info.agentId);
    if (i >= 0) this.agentList[i] = u.info;
    else this.agentList.push(u.info);
    for (const l of this.agentListeners) l(u);
  }

  /** Every operation the UI sent, in order. */
  ops: TuiOp[] = [];
  submit(op: TuiOp): void {
    this.ops.push(op);
    switch (op.type) {
      case 'permission_answer':
        return this.respondPermission(op.requestId, op.decision);
      case 'set_permission_mode':
        this.modes.push(op.mode);
        this.infoValue = { ...this.infoValue, permissionMode: op.mode };
        return;
      case 'set_model':
        this.infoValue = { ...this.infoValue, model: op.model };
        return;
      case 'new_session':
        this.infoValue = { ...this.infoValue, sessionId: 'sess-0002-bbbb' };
        this.current = [];
        return;
      case 'resume':
        this.infoValue = { ...this.infoValue, sessionId: op.sessionId };
        this.current = this.resumed[op.sessionId] ?? [];
        return;
      case 'trust_project':
        this.trusted = true;
        return;
      case 'add_rule':
        this.rules.push({ rule: op.rule, behavior: op.behavior, source: op.scope ?? 'session' });
        return;
      case 'remove_rule':
        this.rules = this.rules.filter((r) => !(r.rule === op.rule && r.behavior === op.behavior));
        return;
      case 'add_prompt_history':
        this.history.push(op.text);
        return;
      case 'approve_mcp_servers':
        this.actions.push(`approve ${op.names.join(',')}`);
        this.changeMcp((list) => list.map((s) => (op.names.includes(s.name) ? { ...s, status: 'connecting' } : s)));
        return;
      case 'stop_subagent':
        this.actions.push(`stop ${op.agentId}`);
        if (this.endsBeforeStop || !this.agentList.some((a) => a.agentId === op.agentId && (a.status === 'running' || a.status === 'queued'))) throw new Error(`no queued or running sub-agent ${op.agentId}`);
        return;
    }
  }
  /** The operations with an answer, as the real host answers them. */
  request<O extends RequestOp>(op: O): Promise<OpAnswers[O['type']]>;
  async request(op: RequestOp): Promise<OpAnswers[RequestOp['type']]> {
    switch (op.type) {
      case 'rewind': {
        const { type: _op, ...req } = op;
        return this.rewind(req);
      }
      case 'reconnect_mcp':
        this.actions.push(`reconnect ${op.server}`);
        return undefined;
      case 'merge_worktree': {
        const w = this.worktree(op.id);
        this.actions.push(`merge ${w.id}`);
        return { branch: w.branch, outcome: this.mergeResult };
      }
      case 'remove_worktree': {
        const w = this.worktree(op.id);
        this.actions.push(`rm ${w.id}${op.force === true ? ' --force' : ''}`);
        return { branch: w.branch };
      }
    }
  }
  private current: Message[] = [];
  conversation(): Message[] {
    return this.current;
  }
  info(): TuiInfo {
    return this.infoValue;
  }
  initialMessages(): Message[] {
    return this.earlier;
  }
  run(prompt: PromptInput, signal: AbortSignal): AsyncIterable<SessionEvent> {
    this.prompts.push(prompt);
    return this.play(signal);
  }
  /** Plays the next script. */
  private async *play(signal: AbortSignal): AsyncIterable<SessionEvent> {
    const script = this.scripts.shift() ?? [];
    for (const step of script) {
      if (signal.aborted) break;
      if ('wait' in step) await Bun.sleep(step.wait);
      else if ('act' in step) step.act();
      else if ('gate' in step) await new Promise<void>((resolve) => this.gates.set(step.gate, resolve));
      else if ('awaitPermission' in step) {
        const id = step.awaitPermission;
        const d = await new Promise<PermissionDecision>((resolve) => this.waiters.set(id, resolve));
        yield { type: 'permission_resolved', requestId: id, decision: d };
      } else if ('awaitAbort' in step) {
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      } else yield step;
    }
    if (signal.aborted) {
      yield { type: 'turn_aborted', turn: 1 };
      yield finished('aborted');
    }
  }
  /** The instructions of each `/compact` (undefined: none); it plays the next script like a run. */
  compactions: (string | undefined)[] = [];
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<SessionEvent> {
    this.compactions.push(instructions);
    return this.play(signal);
  }
  private respondPermission(requestId: string, decision: PermissionDecision): void {
    this.decisions.push({ requestId, decision });
    this.waiters.get(requestId)?.(decision);
    this.waiters.delete(requestId);
  }
  models(): string[] {
    return ['claude-sonnet-4-5', 'claude-opus-4-5', 'claude-haiku-4-5'];
  }
  listSessions(): SessionSummary[] {
    return this.sessions;
  }
  /** What `/rewind` lists, and the rewinds asked for (a refusal is thrown while `refuseUnlessForced`). */
  points: RewindPointView[] = [];
  rewinds: RewindRequest[] = [];
  refuseUnlessForced = false;
  rewindPoints(): Promise<RewindPointView[]> {
    return Promise.resolve(this.points);
  }
  private rewind(req: RewindRequest): Promise<RewindOutcome> {
    this.rewinds.push(req);
    if (this.refuseUnlessForced && req.force !== true) return Promise.reject(new Error('not rewinding: a file was changed outside moat since the checkpoint (a.txt); ask again with --force to overwrite it'));
    return Promise.resolve({ code: req.code ? { lines: ['restore   a.txt'], filesChanged: ['a.txt'], insertions: 1, deletions: 1, leftOut: [], saved: 'abc' } : undefined, branch: req.conversation ? 'branch-session-id' : undefined });
  }
  promptHistory(): string[] {
    return [...this.history];
  }
  tools(): ToolInfo[] {
    return [
      { name: 'Bash', description: 'Runs a command.', effect: 'execute' },
      { name: 'Read', description: 'Reads a file.', effect: 'read' },
    ];
  }
  skills(): SkillInfo[] {
    return this.skillList.map(({ name, description, args }) => ({ name, description, ...(args ? { args } : {}) }));
  }
  /** `body` with `$ARGUMENTS` replaced; a `required` skill without arguments ends with its usage line as the error. */
  async *expandSkill(name: string, args: string): AsyncIterable<SessionEvent> {
    const s = this.skillList.find((x) => x.name === name);
    if (!s) yield { type: 'skill_expanded', name };
    else if (s.required && !args) yield { type: 'skill_expanded', name, error: `/${name} needs ${s.args ?? '<arg>'}: usage: /${name} ${s.args ?? ''}`.trim() };
    else yield { type: 'skill_expanded', name, prompt: `/${name}\n\n${(s.body ?? '').replace('$ARGUMENTS', args)}` };
  }
  permissionRules(): PermissionRuleView[] {
    return this.rules;
  }
  /** What a test's project settings would grant; the trust_project operation clears it. */
  grants: string[] = [];
  trusted = false;
  untrustedGrants(): string[] {
    return this.trusted ? [] : this.grants;
  }
  /** MCP servers as /mcp shows them; `changeMcp` edits them and tells the listeners. */
  mcpList: McpServerView[] = [];
  private mcpListeners = new Set<() => void>();
  mcpServers(): McpServerView[] {
    return this.mcpList;
  }
  onMcpChange(listener: () => void): () => void {
    this.mcpListeners.add(listener);
    return () => this.mcpListeners.delete(listener);
  }
  /** Notices from outside a run; `notice` says one to the listeners. */
  private noticeListeners = new Set<(level: 'info' | 'warning', text: string) => void>();
  onNotice(listener: (level: 'info' | 'warning', text: string) => void): () => void {
    this.noticeListeners.add(listener);
    return () => this.noticeListeners.delete(listener);
  }
  notice(level: 'info' | 'warning', text: string): void {
    for (const l of this.noticeListeners) l(level, text);
  }
  /** The UI's answerer of MCP servers' questions; `elicit` asks it as a server would. */
  elicitationHandler: ElicitationHandler | undefined;
  onElicitation(handler: ElicitationHandler): () => void {
    this.elicitationHandler = handler;
    return () => {
      if (this.elicitationHandler === handler) this.elicitationHandler = undefined;
    };
  }
  elicit(request: ElicitationRequest, signal = new AbortController().signal): Promise<ElicitationAnswer> {
    if (this.elicitationHandler === undefined) return Promise.resolve({ action: 'cancel' });
    return this.elicitationHandler(request, signal);
  }
  changeMcp(edit: (list: McpServerView[]) => McpServerView[]): void {
    this.mcpList = edit(this.mcpList);
    for (const l of this.mcpListeners) l();
  }
  mcpPrompt(command: string, args: string): Promise<string> {
    const p = this.mcpList.flatMap((s) => s.prompts).find((x) => x.command === command);
    if (p === undefined) return Promise.reject(new Error(`/${command}: no connected MCP server offers this prompt (/mcp shows the servers).`));
    if (p.args.some((a) => a.required) && !args) return Promise.reject(new Error(`/${command} needs ${p.args[0]?.name}. Usage: /${command} <${p.args[0]?.name}>`));
    return Promise.resolve(`prompt ${command} with ${args}`);
  }
  hookList: HookView[] = [];
  hooks(): HookView[] {
    return this.hookList;
  }
  /** `!cmd`: the next of `shellResults` (or a plain success), as the one `shell_finished`. */
  async *shell(command: string, _signal: AbortSignal): AsyncIterable<SessionEvent> {
    const r = this.shellResults.shift() ?? { command, output: `ran ${command}\n`, exitCode: 0, durationMs: 12 };
    yield { type: 'shell_finished', ...r, command };
  }
  async listFiles(): Promise<string[]> {
    return this.files;
  }
  cost(): CostInfo {
    return { sessionCostUsd: 0.0123, usage: { inputTokens: 1000, outputTokens: 200, cacheCreationInputTokens: 0, cacheReadInputTokens: 500 }, turns: 2 };
  }
  agentDefinitions(): AgentDefinitionInfo[] {
    return this.definitions;
  }
  subagents(): AgentInfo[] {
    return [...this.agentList];
  }
  onSubagentUpdate(listener: (u: SubagentUpdate) => void): () => void {
    this.agentListeners.add(listener);
    return () => this.agentListeners.delete(listener);
  }
  async listWorktrees(): Promise<WorktreeView[]> {
    return this.worktreeList;
  }
  private worktree(id: string): WorktreeView {
    const w = this.worktreeList.find((x) => x.id.startsWith(id));
    if (!w) throw new Error(`no moat worktree '${id}' in this repository`);
    return w;
  }
  async worktreeDiffStat(id: string): Promise<string> {
    this.actions.push(`diff ${id}`);
    return ` a.txt | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n`;
  }
  async shutdown(): Promise<void> {
    this.shutdowns++;
  }
  log(message: string): void {
    this.logs.push(message);
  }
}

export function finished(stopReason: 'end_turn' | 'aborted' | 'error', error?: string): SessionEvent {
  return {
    type: 'run_finished',
    stopReason,
    result: '',
    turns: 1,
    usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
    costUsd: 0,
    durationMs: 10,
    ...(error ? { error } : {}),
  };
}

/** Text split into deltas of `size` characters. */
export function deltas(text: string, size = 7, turn = 1): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (let i = 0; i < text.length; i += size) out.push({ type: 'text_delta', turn, index: 0, text: text.slice(i, i + size) });
  return out;
}
