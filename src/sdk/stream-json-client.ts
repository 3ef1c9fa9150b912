/**
 * The stream-json input mode (`--input-format stream-json`): the client of
 * the session protocol that programs and the Claude Agent SDK drive over
 * stdin and stdout.
 */
import { formatIssue } from '../contracts/index.ts';
import type { PermissionDecision, UserPart } from '../agent/index.ts';
import { makeColors, progressLine, type OutputMapper } from '../print/index.ts';
import { compactOp, type RunFinishedEvent, type SessionEvent, type SessionHost } from '../protocol/index.ts';
import { errorMessage, newId } from '../util/index.ts';
import { hookCallbacks, type HookCallbackSet, type SendHookCallback } from './hook-callbacks.ts';
import type { SendControlRequest } from './mcp-bridge.ts';
import {
  IncomingRequest,
  InputLine,
  PermissionResult,
  type ControlRequestLine,
  type ControlResponseLine,
  type InitializeRequest,
  type UserInput,
} from './messages.ts';

/** A session opened for the program, after `initialize` (or with defaults at the first user message). */
export interface OpenedSession {
  host: SessionHost;
  /** Writes the session's events as stream-json lines. */
  mapper: OutputMapper;
  /** What `initialize` answers: the commands, agents, models and output style moat has. */
  describe(): Record<string, unknown>;
  /**
   * A text prompt as `-p` would send it: `/name args` expanded into the
   * custom command or skill. Its !`cmd` lines are decided as Bash calls: their
   * permission events go to `onEvent` (a question goes to the program).
   */
  expand(text: string, onEvent: (e: SessionEvent) => void): Promise<string>;
  /** `mcp_status`'s answer: each MCP server's status in the SDK's McpServerStatus shape. */
  mcpStatus(): Record<string, unknown>[];
  close(): Promise<void>;
}

export interface StreamJsonClientDeps {
  /** stdin, one line per item. */
  lines: AsyncIterable<string>;
  /** stdout: one JSON object per call, newline-terminated by the client. */
  write(line: string): void;
  /** stderr, with --debug; a no-op otherwise. */
  debug(line: string): void;
  /**
   * Opens the session with what `initialize` said; `hooks` are the program's hook callbacks, and `program`
   * reaches the program's in-process MCP servers (initialize's `sdkMcpServers`).
   */
  open(init: InitializeRequest | undefined, hooks: HookCallbackSet, program: SendControlRequest): Promise<OpenedSession>;
  /** --permission-prompt-tool stdio: questions go to the program as can_use_tool. */
  permissionPrompt: boolean;
  /** The answers' token limit: a thinking budget must stay below it. */
  maxTokens: number;
}

export interface StreamJsonOutcome {
  /** The last turn's end, if any turn ran. */
  last: RunFinishedEvent | undefined;
  /** A line that was not valid stream-json input stopped the reading (one line on stderr said which). */
  badInput: string | undefined;
}

/** Outgoing control requests (can_use_tool, hook_callback) waiting for the program's control_response. */
class PendingRequests {
  private readonly waiting = new Map<string, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  private closed: string | undefined;

  constructor(private readonly write: (line: string) => void) {}

  send(request: Record<string, unknown> & { subtype: string }, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const requestId = newId();
    return new Promise((resolve, reject) => {
      if (this.closed !== undefined) return reject(new Error(this.closed));
      const onAbort = () => {
        this.waiting.delete(requestId);
        this.write(JSON.stringify({ type: 'control_cancel_request', request_id: requestId }));
        reject(new Error('cancelled'));
      };
      if (signal?.aborted) return reject(new Error('cancelled'));
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(requestId, {
        resolve: (v) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(v);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      this.write(JSON.stringify({ type: 'control_request', request_id: requestId, request }));
    });
  }

  answer(line: ControlResponseLine): boolean {
    const r = line.response;
    const waiter = this.waiting.get(r.request_id);
    if (!waiter) return false;
    this.waiting.delete(r.request_id);
    if (r.subtype === 'success') waiter.resolve(r.response ?? {});
    else waiter.reject(new Error(r.error));
    return true;
  }

  /** The program stopped talking (stdin closed): nothing will answer. */
  failAll(message: string): void {
    this.closed = message;
    for (const [id, waiter] of this.waiting) {
      this.waiting.delete(id);
      waiter.reject(new Error(message));
    }
  }
}

function userParts(content: UserInput['message']['content']): string | UserPart[] {
  if (typeof content === 'string') return content;
  return content.map((b): UserPart => (b.type === 'text' ? { type: 'text', text: b.text } : { type: 'image', mediaType: b.source.media_type, data: b.source.data }));
}

/** The rule an "always" answer would save, as Claude Code offers it: `Bash(npm test:*)` → toolName + ruleContent. */
export function suggestion(rule: string): Record<string, unknown> {
  const open = rule.indexOf('(');
  const entry = open > 0 && rule.endsWith(')') ? { toolName: rule.slice(0, open), ruleContent: rule.slice(open + 1, -1) } : { toolName: rule };
  return { type: 'addRules', rules: [entry], behavior: 'allow', destination: 'localSettings' };
}

/**
 * What "always" would mean for this call, as Claude Code offers it: for an
 * edit, `acceptEdits` for the rest of the session (so the next file is not
 * asked again); for anything else, an allow rule kept in the project's local settings.
 */
function suggestionsFor(e: Extract<SessionEvent, { type: 'permission_request' }>): { permission_suggestions?: Record<string, unknown>[] } {
  if (e.intent.ruleName === 'Edit') return { permission_suggestions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] };
  return e.rule === undefined ? {} : { permission_suggestions: [suggestion(e.rule)] };
}

/** Modes a program's answer may switch the session to (`bypassPermissions` only ever comes from the command line). */
const ANSWER_MODES = new Set(['default', 'acceptEdits', 'plan']);

/** A `setMode` update in the program's answer: the mode the session takes from now on. */
export function modeUpdate(result: PermissionResult): 'default' | 'acceptEdits' | 'plan' | undefined {
  if (result.behavior !== 'allow') return undefined;
  const mode = result.updatedPermissions?.find((u) => u.type === 'setMode')?.['mode'];
  return typeof mode === 'string' && ANSWER_MODES.has(mode) ? (mode as 'default' | 'acceptEdits' | 'plan') : undefined;
}

/** The innermost event of a (possibly nested) sub-agent event. */
function innermost(e: SessionEvent): SessionEvent {
  return e.type === 'subagent_event' ? innermost(e.event) : e;
}

/** Claude Code's `destination` of an "always" rule as where moat keeps it (`session` and `cliArg`: this session only). */
const DESTINATIONS = new Map<string, 'local' | 'project' | 'user'>([
  ['localSettings', 'local'],
  ['projectSettings', 'project'],
  ['userSettings', 'user'],
]);

/** The program's can_use_tool answer as the session protocol's decision. */
export function toDecision(result: PermissionResult): PermissionDecision {
  if (result.behavior === 'deny') return { behavior: 'deny', ...(result.message ? { message: result.message } : {}) };
  const added = (result.updatedPermissions ?? []).filter((u) => u.type === 'addRules' && (u.behavior ?? 'allow') === 'allow');
  const rules = added.flatMap((u) => (u.rules ?? []).map((r) => (r.ruleContent ? `${r.toolName}(${r.ruleContent})` : r.toolName)));
  const remember = DESTINATIONS.get(added[0]?.destination ?? '') ?? 'session';
  return {
    behavior: 'allow',
    ...(rules.length > 0 ? { remember, rules } : {}),
    ...(result.updatedInput === undefined ? {} : { updatedInput: result.updatedInput }),
  };
}

/**
 * Reads JSON lines while stdin stays open: each `user` line is a turn (they
 * queue), control requests are answered on stdout, and the session's events
 * are written as stream-json lines, a `result` line ending each turn. When
 * stdin closes, the waiting turns finish and the outcome is returned.
 */
export async function runStreamJsonClient(deps: StreamJsonClientDeps): Promise<StreamJsonOutcome> {
  const write = (o: unknown) => deps.write(`${JSON.stringify(o)}\n`);
  const pending = new PendingRequests((line) => deps.write(`${line}\n`));
  let opened: Promise<OpenedSession> | undefined;
  let pump: Promise<void> | undefined;
  let last: RunFinishedEvent | undefined;
  let badInput: string | undefined;

  const sendHookCallback: SendHookCallback = async (callbackId, input, toolUseId, signal) =>
    pending.send({ subtype: 'hook_callback', callback_id: callbackId, input, ...(toolUseId === undefined ? {} : { tool_use_id: toolUseId }) }, signal);

  /** Questions the program has not answered yet: withdrawn ones (the turn was interrupted) are cancelled. */
  const asking = new Map<string, AbortController>();

  const ask = async (host: SessionHost, e: Extract<SessionEvent, { type: 'permission_request' }>, signal: AbortSignal) => {
    let decision: PermissionDecision;
    try {
      const raw = await pending.send(
        {
          subtype: 'can_use_tool',
          tool_name: e.toolName,
          display_name: e.toolName,
          input: e.input ?? {},
          tool_use_id: e.toolUseId,
          description: e.intent.summary,
          ...suggestionsFor(e),
        },
        signal,
      );
      const parsed = PermissionResult.safeParse(raw);
      decision = parsed.success ? toDecision(parsed.data) : { behavior: 'deny', message: `the program's answer was not a permission result: ${formatIssue(parsed.error.issues[0])}` };
      // "Always" for an edit is a mode for the session: set before the answer, so the next edit of this turn is not asked.
      const mode = parsed.success ? modeUpdate(parsed.data) : undefined;
      if (mode !== undefined) host.submit({ type: 'set_permission_mode', mode });
      if (parsed.success && parsed.data.behavior === 'deny' && parsed.data.interrupt) host.submit({ type: 'interrupt' });
    } catch (err) {
      // Withdrawn: the session already counts it as a denial, and the program was sent control_cancel_request.
      if (signal.aborted) return;
      decision = { behavior: 'deny', message: `no answer from the program: ${errorMessage(err)}` };
    }
    host.submit({ type: 'permission_answer', requestId: e.requestId, decision });
  };

  /** Asks the program a session's question, and cancels one that was answered or withdrawn in the session. */
  const questions = (host: SessionHost, e: SessionEvent) => {
    // Without a prompt tool the session was opened without an answerer, so no question reaches here.
    if (e.type === 'permission_request' && deps.permissionPrompt) {
      const controller = new AbortController();
      asking.set(e.requestId, controller);
      void ask(host, e, controller.signal);
    }
    // Resolved: answered by the program (nothing left to cancel) or withdrawn by an interrupt (cancelled now).
    if (e.type === 'permission_resolved') {
      asking.get(e.requestId)?.abort();
      asking.delete(e.requestId);
    }
  };
  /** Permission events of custom commands' !`cmd` lines, for the next run's output. */
  const early: SessionEvent[] = [];

  const open = (init: InitializeRequest | undefined): Promise<OpenedSession> => {
    opened ??= deps.open(init, hookCallbacks(init?.hooks ?? {}, sendHookCallback), (request) => pending.send(request)).then((session) => {
      pump = (async () => {
        const colors = makeColors(false);
        for await (const e of session.host.events) {
          for (const line of session.mapper.map(e)) write(line);
          // A custom command's !`cmd` permission events go out with its run (after its start: the result lists the denials).
          if (e.type === 'session_started') for (const x of early.splice(0)) for (const line of session.mapper.map(x)) write(line);
          const progress = progressLine(e, colors);
          if (progress !== undefined) deps.debug(progress);
          if (e.type === 'run_finished') last = e;
          questions(session.host, innermost(e));
        }
      })();
      return session;
    });
    return opened;
  };

  const respond = (requestId: string, body: { response?: Record<string, unknown> } | { error: string }) =>
    write({
      type: 'control_response',
      response: 'error' in body ? { subtype: 'error', request_id: requestId, error: body.error } : { subtype: 'success', request_id: requestId, response: body.response ?? {} },
    });

  const control = async (line: ControlRequestLine) => {
    const parsed = IncomingRequest.safeParse(line.request);
    if (!parsed.success) {
      respond(line.request_id, { error: `moat does not handle control request "${line.request.subtype}"` });
      return;
    }
    const req = parsed.data;
    switch (req.subtype) {
      case 'initialize': {
        if (opened) return respond(line.request_id, { error: 'already initialized' });
        try {
          const session = await open(req);
          respond(line.request_id, { response: session.describe() });
        } catch (err) {
          respond(line.request_id, { error: errorMessage(err) });
          throw err;
        }
        return;
      }
      case 'interrupt':
        (await open(undefined)).host.submit({ type: 'interrupt' });
        return respond(line.request_id, {});
      case 'set_permission_mode':
        (await open(undefined)).host.submit({ type: 'set_permission_mode', mode: req.mode === 'auto' ? 'default' : req.mode });
        return respond(line.request_id, {});
      case 'set_model':
        if (req.model !== undefined) (await open(undefined)).host.submit({ type: 'set_model', model: req.model });
        return respond(line.request_id, {});
      case 'set_max_thinking_tokens': {
        const tokens = req.max_thinking_tokens ?? null;
        // The API's own limits: a budget is at least 1024 tokens and below the answer's max_tokens.
        if (tokens !== null && (tokens < 1024 || tokens >= deps.maxTokens)) {
          return respond(line.request_id, { error: `max_thinking_tokens must be from 1024 to ${deps.maxTokens - 1}, or null to turn thinking off` });
        }
        (await open(undefined)).host.submit({ type: 'set_thinking_budget', tokens });
        return respond(line.request_id, {});
      }
      case 'mcp_status':
        return respond(line.request_id, { response: { mcpServers: (await open(undefined)).mcpStatus() } });
      case 'rewind_files': {
        // The SDK's RewindFilesResult: a refusal is an answer (canRewind false), not a failed request.
        const req2 = { checkpointId: req.user_message_id, code: true, conversation: false, dryRun: req.dry_run ?? false, force: req.force ?? false };
        try {
          const { code } = await (await open(undefined)).host.rewind(req2);
          return respond(line.request_id, { response: { canRewind: true, filesChanged: code?.filesChanged ?? [], insertions: code?.insertions ?? 0, deletions: code?.deletions ?? 0 } });
        } catch (e) {
          return respond(line.request_id, { response: { canRewind: false, error: errorMessage(e) } });
        }
      }
    }
  };

  // Messages and requests take effect in the order they came, but the loop reading stdin never waits for them: a
  // custom command's !`cmd` line may wait for the program's answer to a question, which comes on stdin.
  let ordered: Promise<void> = Promise.resolve();
  const inOrder = (fn: () => Promise<void>) => {
    ordered = ordered.then(fn);
    // Seen here so the rejection is not unhandled; the first failure is thrown again at the end, as before.
    ordered.catch(() => undefined);
  };

  for await (const raw of deps.lines) {
    if (raw.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      badInput = `not JSON: ${raw.slice(0, 80)}`;
      break;
    }
    const parsed = InputLine.safeParse(json);
    if (!parsed.success) {
      badInput = `not a stream-json input line (user, control_request or control_response): ${raw.slice(0, 80)}`;
      break;
    }
    const line = parsed.data;
    deps.debug(`moat: <- ${line.type}${line.type === 'control_request' ? ` ${line.request.subtype}` : ''}`);
    switch (line.type) {
      case 'user': {
        inOrder(async () => {
          // `/compact [instructions]` is a command for the session, as in Claude Code, not a prompt.
          const content = userParts(line.message.content);
          const session = await open(undefined);
          const compact = compactOp(content);
          // `/name args` runs the custom command or skill, exactly as `moat -p "/name args"` does.
          // The SDK sends a string prompt as one text block.
          const text = typeof content === 'string' ? content : content.length === 1 && content[0]?.type === 'text' ? content[0].text : undefined;
          const expand = (t: string) =>
            session.expand(t, (e) => {
              questions(session.host, e);
              early.push(e);
            });
          session.host.submit(compact ?? { type: 'user_message', content: text === undefined ? content : await expand(text) });
        });
        break;
      }
      case 'control_request':
        inOrder(() => control(line));
        break;
      case 'control_response':
        if (!pending.answer(line)) deps.debug(`moat: a control_response for an unknown request ${line.response.request_id}`);
        break;
      default:
        break;
    }
  }

  // stdin closed: what came before it takes effect (a question still open is failed below, so nothing waits on it).
  const before = ordered;
  // stdin closed: nobody can answer a question any more; the turns already sent still run to their end.
  pending.failAll('the program closed stdin');
  await before;
  if (opened) {
    const session = await opened;
    session.host.submit({ type: 'end' });
    if (badInput !== undefined) session.host.submit({ type: 'interrupt' });
    await pump;
    await session.close();
  }
  return { last, badInput };
}
