// One MCP server: connects with a start-up timeout, keeps its tools, prompts and resources current, calls tools.
import { basename } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ElicitRequest, ElicitResult, GetPromptResult, Prompt, ReadResourceResult, Resource, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, signalTree } from '../util/index.ts';
import type { SandboxViolation } from '../sandbox/index.ts';
import { httpStatus, needsLogin } from './http-errors.ts';
import { refusalLine } from './sandbox-refusals.ts';
import { loadSdk, type McpSdk } from './sdk.ts';
import type { StoredOAuthProvider } from './oauth.ts';
import type { McpServerConfig, StdioServerConfig } from './server-config.ts';
import { httpTransport, launchStdio, type LaunchOptions, type StdioLaunch } from './transports.ts';

export type ServerState =
  | { status: 'disabled' }
  | { status: 'needs-approval' }
  | { status: 'connecting' }
  | { status: 'connected' }
  | { status: 'needs-auth'; error: string }
  | { status: 'failed'; error: string };

export interface ConnectionOptions {
  launch: LaunchOptions;
  /** Folders announced as roots, read at each roots/list request: the working folder and --add-dir folders. */
  roots(): readonly string[];
  clientVersion: string;
  /** OAuth for remote servers (tokens stored by moat); none: a 401 fails the server. May import its code first. */
  authProvider?(server: McpServerConfig): StoredOAuthProvider | undefined | Promise<StoredOAuthProvider | undefined>;
  /** Tools, prompts, resources or the state changed. */
  onChange(): void;
  /**
   * Asks the user (the TUI's form) or the driving program (the Agent SDK's
   * onElicitation) what a server's `elicitation/create` wants; none: the
   * request is cancelled, as Claude Code's -p does.
   */
  elicit?: Elicit;
  /** Something the server did that the user should know once, though it keeps working (a malformed line skipped). */
  onNotice?(name: string, line: string): void;
  /** The transport to a server of the program driving moat (`transport: 'sdk'`); none: such a server fails. */
  programTransport?(name: string): Transport;
  /** The user's config file as the user knows it (where a server's grants go); none: `~/.config/moat/config.toml`. */
  userConfig?: string;
}

/** Who answers a server's `elicitation/create` (the server's name, the request); its answer goes back to the server. */
export type Elicit = (server: string, request: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

export { needsLogin };

export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpCallError';
  }
}

/** A crashed stdio server is started again no sooner than this after it exited (a crash loop costs a second, not a spin). */
export const RESTART_BACKOFF_MS = 1000;

/** How long a tool's result waits for lists its server said changed during the call (a list answers in milliseconds). */
const REFRESH_WAIT_MS = 2000;

/**
 * Loop turns a call's result waits for the sandbox's last reports: a refused
 * write reaches the write monitor's socket before the server can answer, so
 * it is read within a turn or two (setImmediate: a zero timeout waits a whole
 * millisecond). One that comes later goes with the next call's result.
 */
const REFUSAL_TURNS = 3;

/** How long a connected stdio server has to exit after its stdin closes, when moat ends, before it is killed. */
const CLOSE_GRACE_MS = 200;

/** Servers that answer Streamable HTTP's POST with one of these speak the older HTTP+SSE protocol (the spec's fallback rule). */
const SSE_FALLBACK_STATUS: ReadonlySet<number> = new Set([400, 404, 405]);

/**
 * Why a transport error means the server broke the protocol, or undefined
 * when it does not: a message past the stdio buffer limit (a server flooding
 * stdout) ends the connection. A line that is not JSON at all is a stray log
 * line on stdout, and JSON that is not JSON-RPC 2.0 is skipped by the SDK's
 * reader, which goes on with the next line: Claude Code's client (the same
 * SDK) tolerates both, and so does moat (the second is noted once).
 */
export function protocolViolation(e: unknown): { fatal: boolean; message: string } | undefined {
  const message = errorMessage(e);
  if (/exceeded maximum size/i.test(message)) return { fatal: true, message: `sent an oversized message: ${message}` };
  // The SDK checks each message with its zod schema: a ZodError (v3 or v4) carries issues.
  if (typeof e === 'object' && e !== null && 'issues' in e && Array.isArray((e as { issues: unknown }).issues)) {
    return { fatal: false, message: 'sent a line on stdout that is JSON but not JSON-RPC 2.0; it was skipped' };
  }
  return undefined;
}

/**
 * The server's own account of why it stopped, from its stderr: the error line
 * of an uncaught exception rather than Node's stack and version trailer, or
 * else its last three lines.
 */
export function stderrReason(tail: string): string {
  const lines = tail.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '' && !/^Node\.js v\d/.test(l.trim()));
  const firstFrame = lines.findIndex((l) => /^\s+at\s/.test(l));
  if (firstFrame > 0) {
    // The thrown error's line: the last non-frame line before the stack (Node prints the source line and a caret above it).
    const head = lines.slice(0, firstFrame).filter((l) => !/^\s*\^+\s*$/.test(l));
    const error = [...head].reverse().find((l) => /^\s*(\[?\w*(Error|Exception)\b|Uncaught|\w+:)/.test(l)) ?? head.at(-1);
    if (error !== undefined) return error.trim().slice(0, 300);
  }
  return lines.slice(-3).map((l) => l.trim()).join(' | ').slice(0, 300);
}

/**
 * What a sandboxed server that failed to start was allowed, and how to allow
 * more: most servers that fail in the sandbox (npx fetching a package, a
 * server writing its data file) fail for want of a grant, and say only
 * ENOTFOUND, EROFS or nothing at all.
 */
export function sandboxHint(config: StdioServerConfig): string {
  const s = config.sandbox;
  const has = `network: ${s.networkAllow.length === 0 ? 'none' : s.networkAllow.join(', ')}; writes: its temp folder${s.allowWrite.map((p) => `, ${p}`).join('')}`;
  return ` (in the OS sandbox — ${has}; if it needs more, grant it in the user config: [mcp_servers.${config.name}.sandbox] network_allow = ["<host>"], allow_write = ["<path>"])`;
}

/** Header names that carry credentials: a 401 with one of them set means it was refused. */
const CREDENTIAL_HEADER = /authorization|api[-_]?key|token|secret|auth/i;

/** Why a start failed, in the user's terms: the login a server asks for, a header it refused, or the error and the server's own reason. */
function startFailure(config: McpServerConfig, e: unknown, stderr: string | undefined): ServerState {
  const reason = stderr ? stderrReason(stderr) : '';
  if (needsLogin(e)) {
    // Credentials the user configured were refused: logging in through moat would not change what is sent.
    const names =
      config.transport === 'http' || config.transport === 'sse'
        ? [...new Set([...Object.keys(config.headers).filter((h) => CREDENTIAL_HEADER.test(h)), ...(config.bearerTokenEnvVar === undefined ? [] : ['Authorization'])])]
        : [];
    if (names.length > 0) return { status: 'failed', error: `HTTP 401: the server refused the configured header${names.length > 1 ? 's' : ''} ${names.join(', ')} (check ${names.length > 1 ? 'their values' : 'its value'} in ${config.origin})` };
    return { status: 'needs-auth', error: `needs login: run moat mcp login ${config.name}` };
  }
  const message = errorMessage(e).replace(/\s+/g, ' ').slice(0, 300);
  // The SDK's words for a process that ended before answering initialize.
  if (/connection closed/i.test(message) && config.transport === 'stdio') return { status: 'failed', error: `the server exited while starting${reason ? `: ${reason}` : ' (nothing on its stderr)'}` };
  return { status: 'failed', error: message + (reason ? ` — stderr: ${reason}` : '') };
}

export class McpConnection {
  state: ServerState;
  tools: McpTool[] = [];
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  sandboxed: boolean | undefined;
  /** What the server said about using its tools (initialize's `instructions`). */
  instructions: string | undefined;
  unsandboxedReason: string | undefined;
  /** The name and version the server gave in initialize (once connected). */
  serverInfo: { name: string; version: string } | undefined;
  /** How it is actually reached: 'sse' after a fallback. */
  transportUsed: McpServerConfig['transport'];
  private client: Client | undefined;
  private stdio: StdioLaunch | undefined;
  private starting: Promise<void> | undefined;
  /** When the stdio server exited on its own while connected; undefined once restarted (or never). */
  private crashedAt: number | undefined;
  /** The one restart after a crash, under way or done: at most one per connection (a reconnect allows another). */
  private restarting: Promise<void> | undefined;
  /** Said once to the model, with the result of the call that restarted the server. */
  private restartNotice: string | undefined;
  /** Set by close(): a start still under way spawns nothing more. */
  private closing = false;
  /** Notices already given (each once per server). */
  private readonly noted = new Set<string>();
  /** Sandbox refusals already told, by kind and target: each path or host once per server. */
  private readonly refusalsTold = new Set<string>();
  /** Refusals the model has not heard of yet: they go with the next call's result. */
  private refusalsForModel: string[] = [];
  /** Lists being re-read after a list_changed notification: a tool call's result waits for them (below). */
  private readonly refreshing = new Set<Promise<void>>();

  constructor(
    readonly config: McpServerConfig,
    private readonly o: ConnectionOptions,
  ) {
    this.state = config.enabled ? { status: 'connecting' } : { status: 'disabled' };
    this.transportUsed = config.transport;
  }

  /** Connects once (concurrent callers share the attempt); never throws: failure is the state. */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Resolves when the current start attempt settles (at once when none is running). */
  settled(): Promise<void> {
    return this.starting ?? Promise.resolve();
  }

  private newClient(sdk: McpSdk): Client {
    const { ElicitRequestSchema, ListRootsRequestSchema, PromptListChangedNotificationSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema } = sdk;
    // Elicitation is declared (form mode) as Claude Code declares it: without someone to ask, the answer is cancel.
    const client = new sdk.Client({ name: 'moat', version: this.o.clientVersion }, { capabilities: { roots: { listChanged: true }, elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const elicit = this.o.elicit;
      if (elicit === undefined || request.params.mode === 'url') return { action: 'cancel' };
      return elicit(this.config.name, request.params, extra.signal);
    });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.o.roots().map((p) => ({ uri: Bun.pathToFileURL(p).href, name: basename(p) })),
    }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.listChanged('tools'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.listChanged('prompts'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.listChanged('resources'));
    return client;
  }

  private async connect(): Promise<void> {
    this.state = { status: 'connecting' };
    this.o.onChange();
    const timeoutMs = this.config.startupTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new McpCallError(`did not finish starting within ${timeoutMs / 1000} s (startup_timeout_sec)`)), timeoutMs);
    });
    try {
      const sdk = await loadSdk();
      await Promise.race([this.open(sdk, timeoutMs), timeout]);
      await Promise.race([this.loadLists(), timeout]);
      const instructions = this.client?.getInstructions()?.trim();
      this.instructions = instructions === '' ? undefined : instructions;
      const info = this.client?.getServerVersion();
      this.serverInfo = info === undefined ? undefined : { name: info.name, version: info.version };
      this.state = { status: 'connected' };
      // What it was refused while starting (a data file it could not write) is told now, not at its first call.
      void this.collectRefusals();
    } catch (e) {
      const stderr = this.stdio?.stderrTail();
      await this.closeClient();
      this.state = startFailure(this.config, e, stderr);
      if (this.state.status === 'failed' && this.sandboxed === true && this.config.transport === 'stdio') this.state.error += sandboxHint(this.config);
    } finally {
      clearTimeout(timer);
      this.o.onChange();
    }
  }

  private async open(sdk: McpSdk, timeoutMs: number): Promise<void> {
    const config = this.config;
    if (config.transport === 'stdio') {
      this.stdio = await launchStdio(sdk, config, this.o.launch);
      if (this.closing) throw new McpCallError('closed');
      this.sandboxed = this.stdio.sandboxed;
      this.unsandboxedReason = this.stdio.unsandboxedReason;
      await this.attach(sdk, this.stdio.transport, timeoutMs);
      return;
    }
    if (config.transport === 'sdk') {
      const transport = this.o.programTransport?.(config.name);
      if (transport === undefined) throw new McpCallError('no program to reach it through (an SDK server needs stream-json input)');
      await this.attach(sdk, transport, timeoutMs);
      return;
    }
    const authProvider = await this.o.authProvider?.(config);
    const opts = { env: this.o.launch.env, ...(authProvider === undefined ? {} : { authProvider, authHosts: authProvider.authHosts() }) };
    try {
      await this.attach(sdk, httpTransport(sdk, config, opts), timeoutMs);
      this.transportUsed = config.transport;
    } catch (e) {
      if (config.transport !== 'http' || !SSE_FALLBACK_STATUS.has(httpStatus(e) ?? 0)) throw e;
      await this.closeClient();
      await this.attach(sdk, httpTransport(sdk, config, opts, 'sse'), timeoutMs);
      this.transportUsed = 'sse';
    }
  }

  private async attach(sdk: McpSdk, transport: Transport, timeoutMs: number): Promise<void> {
    const client = this.newClient(sdk);
    this.client = client;
    transport.onerror = undefined;
    client.onerror = (e) => {
      // The server broke the protocol past repair: drop the connection, which fails the calls in flight
      // at once (saying why) instead of leaving them to their timeouts.
      const violation = protocolViolation(e);
      if (violation === undefined) return;
      if (!violation.fatal) {
        if (!this.noted.has(violation.message)) this.o.onNotice?.(this.config.name, violation.message);
        this.noted.add(violation.message);
        return;
      }
      this.state = { status: 'failed', error: violation.message };
      void this.closeClient().finally(() => this.o.onChange());
    };
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.state.status === 'connected') {
        const stderr = stderrReason(this.stdio?.stderrTail() ?? '');
        if (this.config.transport === 'stdio' && this.restarting === undefined) this.crashedAt = Date.now();
        const again = this.crashedAt !== undefined && this.restarting === undefined ? '; it is restarted on the next call' : '';
        this.state = { status: 'failed', error: `the server exited${stderr ? ` — stderr: ${stderr}` : ''}${again}` };
        this.o.onChange();
      }
      void this.stdio?.finish().then((found) => this.noteRefusals(found));
    };
    await client.connect(transport, { timeout: timeoutMs });
  }

  private async loadLists(): Promise<void> {
    await Promise.all([this.refresh('tools'), this.refresh('prompts'), this.refresh('resources')]);
  }

  private listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    // A failed re-read keeps the old list; the connection's own state says when the server is gone.
    const p = this.refresh(kind)
      .catch(() => undefined)
      .finally(() => this.refreshing.delete(p));
    this.refreshing.add(p);
  }

  /** Re-reads one list (after list_changed, or at start). Failures leave the old list. */
  private async refresh(kind: 'tools' | 'prompts' | 'resources'): Promise<void> {
    const client = this.client;
    if (client === undefined) return;
    const caps = client.getServerCapabilities();
    try {
      if (kind === 'tools' && caps?.tools !== undefined) {
        const all: McpTool[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor });
          all.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined && all.length < 10_000);
        this.tools = all;
      } else if (kind === 'prompts' && caps?.prompts !== undefined) {
        this.prompts = (await client.listPrompts()).prompts;
      } else if (kind === 'resources' && caps?.resources !== undefined) {
        this.resources = (await client.listResources()).resources;
      }
    } catch (e) {
      if (kind === 'tools' && this.state.status !== 'connected') throw e;
    }
    this.o.onChange();
  }

  /** Calls a tool. Abort sends notifications/cancelled (the SDK does, for a request whose signal aborts). */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { signal: AbortSignal; toolUseId?: string; onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void },
  ): Promise<CallToolResult> {
    if (this.restartable()) await this.restart();
    const client = this.requireClient();
    // The model's call id, under the key Claude Code sends it with: servers written for it (claude-code-acp's) tie their updates to it.
    const meta = opts.toolUseId === undefined ? {} : { _meta: { 'claudecode/toolUseId': opts.toolUseId } };
    try {
      // Connected: the SDK is loaded.
      const result = await client.callTool({ name, arguments: args, ...meta }, (await loadSdk()).CallToolResultSchema, {
        signal: opts.signal,
        timeout: this.config.toolTimeoutMs,
        resetTimeoutOnProgress: false,
        ...(opts.onProgress === undefined ? {} : { onprogress: (p) => opts.onProgress?.(p.progress, p.total, p.message) }),
      });
      // A server that changed its lists during the call said so before answering: the model's next turn sees the new lists.
      // Bounded: a server slow to list gets its new list applied when it answers, not at the cost of this call.
      if (this.refreshing.size > 0) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([Promise.all(this.refreshing), new Promise((r) => (timer = setTimeout(r, REFRESH_WAIT_MS)))]);
        clearTimeout(timer);
      }
      await this.collectRefusals();
      return result as CallToolResult;
    } catch (e) {
      await this.collectRefusals();
      // The SDK's own words for a dropped server are "Connection closed"; the state says why it was dropped.
      if (this.state.status === 'failed' && !opts.signal.aborted) throw new McpCallError(`MCP server ${this.config.name}: ${this.state.error} (connection closed)`);
      throw e;
    }
  }

  /** A stdio server that exited on its own and has not been restarted yet: its tools stay offered, and the next call starts it again. */
  restartable(): boolean {
    return this.crashedAt !== undefined && this.restarting === undefined && this.state.status === 'failed';
  }

  /** The restart after a crash, once: after the backoff, a fresh process; the model is told with the next result. */
  private restart(): Promise<void> {
    const why = this.state.status === 'failed' ? this.state.error.replace(/; it is restarted on the next call$/, '') : 'it exited';
    const wait = RESTART_BACKOFF_MS - (Date.now() - (this.crashedAt ?? 0));
    this.crashedAt = undefined;
    this.restarting = (async () => {
      if (wait > 0) await Bun.sleep(wait);
      await this.closeClient();
      await this.start();
      if (this.state.status === 'connected') {
        this.restartNotice = `[The MCP server ${this.config.name} had exited (${why}); moat restarted it for this call. It is restarted once: if it exits again, its tools are gone for the rest of the session.]`;
      }
    })();
    return this.restarting;
  }

  /** What the model should hear once, with a call's result: a restart, what the sandbox refused the server; or undefined. */
  takeModelNotice(): string | undefined {
    const lines = [...(this.restartNotice === undefined ? [] : [this.restartNotice]), ...this.refusalsForModel.map((l) => `[The MCP server ${this.config.name} ran into the OS sandbox: ${l}]`)];
    this.restartNotice = undefined;
    this.refusalsForModel = [];
    return lines.length === 0 ? undefined : lines.join('\n');
  }

  /** Tells the user once per path or host (a notice) what the sandbox refused the server, and keeps it for the model. */
  private noteRefusals(found: readonly SandboxViolation[]): void {
    if (this.config.transport !== 'stdio') return;
    for (const v of found) {
      const key = `${v.kind} ${v.target}`;
      if (this.refusalsTold.has(key)) continue;
      this.refusalsTold.add(key);
      const line = refusalLine(this.config, v, this.o.userConfig ?? '~/.config/moat/config.toml');
      this.refusalsForModel.push(line);
      this.o.onNotice?.(this.config.name, `ran into the OS sandbox: ${line}`);
    }
  }

  /** What the sandbox has refused the running server so far, after a few loop turns for its last reports. */
  private async collectRefusals(): Promise<void> {
    const stdio = this.stdio;
    if (stdio === undefined || this.sandboxed !== true) return;
    for (let turn = 0; turn < REFUSAL_TURNS; turn++) await new Promise((r) => setImmediate(r));
    this.noteRefusals(stdio.refusedSoFar());
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.requireClient().readResource({ uri }, { timeout: this.config.toolTimeoutMs, ...(signal === undefined ? {} : { signal }) });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.requireClient().getPrompt({ name, arguments: args }, { timeout: this.config.toolTimeoutMs });
  }

  /** Tells the server the roots changed (notifications/roots/list_changed); a server gone or going is not told. */
  async rootsChanged(): Promise<void> {
    await this.client?.sendRootsListChanged().catch(() => undefined);
  }

  private requireClient(): Client {
    if (this.client === undefined || this.state.status !== 'connected') {
      const why = this.state.status === 'failed' || this.state.status === 'needs-auth' ? this.state.error : this.state.status;
      throw new McpCallError(`MCP server ${this.config.name} is not connected (${why}).`);
    }
    return this.client;
  }

  /**
   * `graceMs`: how long a stdio server may take to exit on its own after its
   * stdin closes before its process tree is killed (the SDK alone waits 2 s,
   * then signals only the first process); none: the SDK's own pace (a reconnect).
   */
  private async closeClient(graceMs?: number): Promise<void> {
    const client = this.client;
    this.client = undefined;
    const stdio = this.stdio;
    this.stdio = undefined;
    const pid = stdio?.transport.pid;
    // The whole tree: a sandboxed server's inner processes outlive the first one and hold its pipes open.
    const kill = (): void => {
      if (pid !== null && pid !== undefined) signalTree(pid, 'SIGKILL');
    };
    const timer = graceMs === undefined || pid === null || pid === undefined ? undefined : setTimeout(kill, graceMs);
    // Started before the client closes: the SDK's close waits on timers that do not keep moat alive,
    // so at exit it may never return; the server's temp folder must not depend on it.
    const finishing = stdio?.finish().catch((): SandboxViolation[] => []);
    if (client !== undefined) await client.close().catch(() => undefined);
    // A server spawned but not yet attached to a client (close() during its start) is ended here.
    else if (stdio !== undefined) {
      kill();
      await stdio.transport.close().catch(() => undefined);
    }
    clearTimeout(timer);
    this.noteRefusals((await finishing) ?? []);
  }

  /** Closes and connects again (/mcp reconnect). */
  async reconnect(): Promise<void> {
    await this.starting;
    await this.closeClient();
    this.crashedAt = undefined;
    this.restarting = undefined;
    this.tools = [];
    this.prompts = [];
    this.resources = [];
    await this.start();
  }

  /**
   * Ends the server for good (moat is ending): one still starting is killed
   * at once (it has nothing to finish), a connected one gets a moment to exit
   * on its own when its stdin closes.
   */
  async close(): Promise<void> {
    this.closing = true;
    await this.closeClient(this.state.status === 'connecting' ? 0 : CLOSE_GRACE_MS);
    if (this.state.status === 'connected' || this.state.status === 'connecting') this.state = { status: 'failed', error: 'closed' };
  }
}
