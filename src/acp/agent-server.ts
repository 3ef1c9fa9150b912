/** `moat acp`: the agent side of the Agent Client Protocol, a client of the session protocol like the TUI. */
import * as acp from '@agentclientprotocol/sdk';
import { expandSlashCommand, SkillUsageError, type Message, type PermissionDecision, type Skill, type UserPart } from '../agent/index.ts';
import type { PermissionMode } from '../contracts/index.ts';
import { compactOp, type PermissionRequestEvent, type RunFinishedEvent, type SessionEvent, type SessionHost } from '../protocol/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { promptParts } from './prompt-parts.ts';
import { replayUpdates, UpdateMapper } from './session-updates.ts';
import { toolTitle } from './tool-calls.ts';
import { clientTerminals, type ClientTerminals, type TerminalsByCall } from './client-terminals.ts';

/** The editor's own file access, when it offers it: unsaved buffers are read, and edits land in the editor. */
export interface ClientFiles {
  read(path: string): Promise<string>;
  write(path: string, content: string): Promise<void>;
}

/** One opened session, as the composition root assembled it. */
export interface AcpSession {
  id: string;
  cwd: string;
  host: SessionHost;
  permissionMode: PermissionMode;
  model: string;
  models: readonly { value: string; displayName: string; description: string }[];
  skills: readonly Skill[];
  history(): readonly Message[];
  /** Resolves when the MCP servers the editor handed over have connected or failed: the first prompt waits for it. */
  ready: Promise<void>;
  /** "Reject always": the call's rule denied from now on, kept where the TUI keeps rules. */
  denyAlways(rule: string): void;
  close(): Promise<void>;
}

export interface AcpOpenRequest {
  cwd: string;
  mcpServers: readonly acp.McpServer[];
  /** session/load: the saved session to go on with. */
  resume?: string;
  /** Present when the client offers `fs/read_text_file` and `fs/write_text_file`; bound to this session's id once it has one. */
  files?: (sessionId: () => string) => ClientFiles;
  /** Present when the client offers `terminal/*`: commands run in the editor's terminals (through moat's sandbox launcher). */
  terminals?: (sessionId: () => string) => ClientTerminals;
}

export interface AcpDeps {
  version: string;
  /** Which environment variables hold API keys the configured models use: the auth method's description. */
  apiKeyHint: string;
  open(request: AcpOpenRequest): Promise<AcpSession>;
  warn(line: string): void;
}

const MODES: { id: PermissionMode; name: string; description: string }[] = [
  { id: 'default', name: 'Default', description: 'Ask before edits, commands and network access' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Edits in the project run without asking' },
  { id: 'plan', name: 'Plan', description: 'Read-only: explore and propose a plan' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Every call runs without asking' },
];

const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always', kind: 'reject_always' },
];

interface Live {
  session: AcpSession;
  mode: PermissionMode;
  model: string;
  running: AbortController | undefined;
  /** The editor's terminals shown on this session's tool calls. */
  terminals: TerminalsByCall;
}

function modeState(mode: PermissionMode): acp.SessionModeState {
  return { currentModeId: mode, availableModes: MODES };
}

function configOptions(live: Live): acp.SessionConfigOption[] {
  const options = live.session.models.map((m) => ({ value: m.value, name: m.displayName, description: m.description }));
  if (!options.some((o) => o.value === live.model)) options.unshift({ value: live.model, name: live.model, description: 'the configured model' });
  return [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: live.model, options }];
}

function stopReason(finished: RunFinishedEvent | undefined, cancelled: boolean): acp.StopReason {
  if (cancelled || finished?.stopReason === 'aborted') return 'cancelled';
  if (finished?.stopReason === 'max_turns' || finished?.stopReason === 'budget') return 'max_turn_requests';
  return 'end_turn';
}

/** The decision an option stands for; "reject always" also adds the deny rule. */
function decisionFor(outcome: acp.RequestPermissionOutcome, request: PermissionRequestEvent, session: AcpSession): PermissionDecision {
  if (outcome.outcome === 'cancelled') return { behavior: 'deny', message: 'The editor cancelled the question.' };
  switch (outcome.optionId) {
    case 'allow_once':
      return { behavior: 'allow' };
    case 'allow_always':
      // As the TUI's "always": kept in the project's configuration.
      return { behavior: 'allow', remember: 'project' };
    case 'reject_always':
      if (request.rule !== undefined) session.denyAlways(request.rule);
      return { behavior: 'deny' };
    default:
      return { behavior: 'deny' };
  }
}

/** `/name args` typed in the editor: a skill or custom command's prompt (and its model); anything else as written. */
function expandCommand(parts: UserPart[], skills: readonly Skill[]): { parts: UserPart[]; model?: string } {
  const first = parts[0];
  if (first?.type !== 'text' || !first.text.startsWith('/')) return { parts };
  let expansion;
  try {
    expansion = expandSlashCommand(first.text, skills);
  } catch (e) {
    if (e instanceof SkillUsageError) throw acp.RequestError.invalidParams(undefined, e.message);
    throw e;
  }
  if (expansion.type !== 'skill') return { parts };
  return { parts: [{ type: 'text', text: expansion.prompt }, ...parts.slice(1)], ...(expansion.skill.model === undefined ? {} : { model: expansion.skill.model }) };
}

/** A user mistake in a request as ACP's invalid-params error; anything else stays an internal error. */
function asRequestError(e: unknown): unknown {
  return e instanceof MoatError ? acp.RequestError.invalidParams(undefined, e.message) : e;
}

/** Builds the ACP agent app (one per connection), and what closes its sessions once the connection has ended. */
export function acpAgent(deps: AcpDeps): { app: acp.AgentApp; closeAll(): Promise<void> } {
  const sessions = new Map<string, Live>();
  let clientCaps: acp.ClientCapabilities = {};

  const live = (id: string): Live => {
    const s = sessions.get(id);
    if (s === undefined) throw acp.RequestError.sessionNotFound(id);
    return s;
  };

  const open = async (request: AcpOpenRequest, client: acp.AgentContext): Promise<Live> => {
    const files = clientCaps.fs?.readTextFile === true && clientCaps.fs.writeTextFile === true ? clientFiles(client) : undefined;
    const byCall: TerminalsByCall = new Map();
    const terminals = clientCaps.terminal === true ? clientTerminals(client, byCall) : undefined;
    let session: AcpSession;
    try {
      session = await deps.open({ ...request, ...(files === undefined ? {} : { files }), ...(terminals === undefined ? {} : { terminals }) });
    } catch (e) {
      throw asRequestError(e);
    }
    const entry: Live = { session, mode: session.permissionMode, model: session.model, running: undefined, terminals: byCall };
    sessions.set(session.id, entry);
    // Offered as slash commands: skills and custom commands, and /compact.
    const availableCommands: acp.AvailableCommand[] = [
      { name: 'compact', description: 'Replace the conversation with a summary', input: { hint: '[instructions]' } },
      ...session.skills.map((s) => ({ name: s.name, description: s.description, ...(s.argumentHint === undefined ? {} : { input: { hint: s.argumentHint } }) })),
    ];
    // After the response: the client knows the session id by then.
    setTimeout(() => void notify(client, session.id, { sessionUpdate: 'available_commands_update', availableCommands }).catch(() => {}), 0);
    return entry;
  };

  const app = acp
    .agent({ name: 'moat' })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: true, sse: false },
        },
        authMethods: [{ id: 'api-key', name: 'API key from the environment', description: deps.apiKeyHint }],
        agentInfo: { name: 'moat', title: 'moat', version: deps.version },
      };
    })
    // The key comes from moat's environment; there is nothing to log in to.
    .onRequest(acp.methods.agent.authenticate, () => ({}))
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const entry = await open({ cwd: params.cwd, mcpServers: params.mcpServers }, client);
      return { sessionId: entry.session.id, modes: modeState(entry.mode), configOptions: configOptions(entry) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      if (sessions.has(params.sessionId)) throw acp.RequestError.invalidRequest(undefined, `session ${params.sessionId} is already open`);
      const entry = await open({ cwd: params.cwd, mcpServers: params.mcpServers, resume: params.sessionId }, client);
      for (const update of replayUpdates(entry.session.history(), entry.session.cwd)) await notify(client, entry.session.id, update);
      return { modes: modeState(entry.mode), configOptions: configOptions(entry) };
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
      const entry = live(params.sessionId);
      const mode = MODES.find((m) => m.id === params.modeId);
      if (mode === undefined) throw acp.RequestError.invalidParams(undefined, `unknown mode ${params.modeId}; the modes are ${MODES.map((m) => m.id).join(', ')}`);
      entry.session.host.submit({ type: 'set_permission_mode', mode: mode.id });
      entry.mode = mode.id;
      await notify(client, params.sessionId, { sessionUpdate: 'current_mode_update', currentModeId: mode.id });
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, ({ params }) => {
      const entry = live(params.sessionId);
      if (params.configId !== 'model' || typeof params.value !== 'string') throw acp.RequestError.invalidParams(undefined, `unknown option ${params.configId}`);
      try {
        entry.session.host.submit({ type: 'set_model', model: params.value });
      } catch (e) {
        throw acp.RequestError.invalidParams(undefined, errorMessage(e));
      }
      entry.model = params.value;
      return { configOptions: configOptions(entry) };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
      const entry = live(params.sessionId);
      if (entry.running !== undefined) throw acp.RequestError.invalidRequest(undefined, 'a prompt is already running in this session');
      let parts: UserPart[];
      try {
        parts = promptParts(params.prompt);
      } catch (e) {
        throw asRequestError(e);
      }
      const controller = new AbortController();
      entry.running = controller;
      try {
        await entry.session.ready;
        const finished = await runTurn(entry, parts, controller.signal, client);
        return { stopReason: stopReason(finished, controller.signal.aborted) };
      } finally {
        entry.running = undefined;
      }
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    });

  /** The editor went away: every session's run stops, its hooks run and its files are closed. */
  const closeAll = async (): Promise<void> => {
    for (const entry of sessions.values()) {
      entry.running?.abort();
      await entry.session.close().catch((e: unknown) => deps.warn(`closing session ${entry.session.id}: ${errorMessage(e)}`));
    }
    sessions.clear();
  };
  return { app, closeAll };

  /** One prompt's run: its events as updates; questions go to the client while the run waits. */
  async function runTurn(entry: Live, parts: UserPart[], signal: AbortSignal, client: acp.AgentContext): Promise<RunFinishedEvent | undefined> {
    const { session } = entry;
    const mapper = new UpdateMapper(session.cwd, entry.terminals);
    const compact = compactOp(parts);
    const expanded = compact ? { parts } : expandCommand(parts, session.skills);
    const events = compact ? session.host.compact(compact.instructions, signal) : session.host.turn(expanded.parts, signal, expanded.model);
    let finished: RunFinishedEvent | undefined;
    for await (const e of events) {
      if (e.type === 'run_finished') finished = e;
      const request = permissionRequestOf(e);
      if (request !== undefined) {
        // Not awaited: the run waits for the answer, this loop keeps forwarding (and a cancel still reaches it).
        void ask(client, entry, request, mapper).catch((err: unknown) => {
          deps.warn(`permission question failed: ${errorMessage(err)}`);
          session.host.submit({ type: 'permission_answer', requestId: request.requestId, decision: { behavior: 'deny', message: 'The editor could not be asked.' } });
        });
        continue;
      }
      for (const update of mapper.map(e)) await notify(client, session.id, update);
    }
    return finished;
  }

  async function ask(client: acp.AgentContext, entry: Live, request: PermissionRequestEvent, mapper: UpdateMapper): Promise<void> {
    const call = mapper.call(request.toolUseId);
    const response = await client.request(acp.methods.client.session.requestPermission, {
      sessionId: entry.session.id,
      toolCall: {
        toolCallId: request.toolUseId,
        title: call === undefined ? request.intent.summary : toolTitle(call.name, call.input),
        rawInput: request.input,
      },
      options: PERMISSION_OPTIONS,
    });
    entry.session.host.submit({ type: 'permission_answer', requestId: request.requestId, decision: decisionFor(response.outcome, request, entry.session) });
  }
}

/** A question from the session or from one of its sub-agents (answered the same way, with its own id). */
function permissionRequestOf(e: SessionEvent): PermissionRequestEvent | undefined {
  if (e.type === 'permission_request') return e;
  if (e.type === 'subagent_event') return permissionRequestOf(e.event);
  return undefined;
}

function notify(client: acp.AgentContext, sessionId: string, update: acp.SessionUpdate): Promise<void> {
  return client.notify(acp.methods.client.session.update, { sessionId, update });
}

function clientFiles(client: acp.AgentContext): (sessionId: () => string) => ClientFiles {
  return (sessionId) => ({
    read: async (path) => (await client.request(acp.methods.client.fs.readTextFile, { sessionId: sessionId(), path })).content,
    write: async (path, content) => {
      await client.request(acp.methods.client.fs.writeTextFile, { sessionId: sessionId(), path, content });
    },
  });
}

/** Serves one editor on `stream` until it closes the connection. */
export async function serveAcp(deps: AcpDeps, stream: acp.Stream): Promise<void> {
  const { app, closeAll } = acpAgent(deps);
  const connection = app.connect(stream);
  await connection.closed;
  await closeAll();
}
