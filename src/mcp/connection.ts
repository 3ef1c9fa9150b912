// One MCP server: connects with a start-up timeout, keeps its tools, prompts and resources current, calls tools.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ListRootsRequestSchema,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../util/index.ts';
import type { StoredOAuthProvider } from './oauth.ts';
import type { McpServerConfig } from './server-config.ts';
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
  /** Folders announced as roots: the working folder and --add-dir folders. */
  roots(): readonly string[];
  clientVersion: string;
  /** OAuth for remote servers (tokens stored by moat); none: a 401 fails the server. */
  authProvider?(server: McpServerConfig): StoredOAuthProvider | undefined;
  /** Tools, prompts, resources or the state changed. */
  onChange(): void;
}

export class McpCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpCallError';
  }
}

/** Servers that answer Streamable HTTP's POST with one of these speak the older HTTP+SSE protocol (the spec's fallback rule). */
const SSE_FALLBACK_STATUS: ReadonlySet<number> = new Set([400, 404, 405]);

function httpStatus(e: unknown): number | undefined {
  if (e instanceof StreamableHTTPError || e instanceof SseError) return e.code;
  return undefined;
}

/** The server wants a (new) login: no token, an expired one that did not refresh, or more scope than the token has. */
export function needsLogin(e: unknown): boolean {
  return e instanceof UnauthorizedError || httpStatus(e) === 401;
}

export class McpConnection {
  state: ServerState;
  tools: McpTool[] = [];
  prompts: Prompt[] = [];
  resources: Resource[] = [];
  sandboxed: boolean | undefined;
  unsandboxedReason: string | undefined;
  /** How it is actually reached: 'sse' after a fallback. */
  transportUsed: 'stdio' | 'http' | 'sse';
  private client: Client | undefined;
  private stdio: StdioLaunch | undefined;
  private starting: Promise<void> | undefined;

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

  private newClient(): Client {
    const client = new Client({ name: 'moat', version: this.o.clientVersion }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: this.o.roots().map((p) => ({ uri: pathToFileURL(p).href, name: basename(p) })),
    }));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refresh('tools'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.refresh('prompts'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.refresh('resources'));
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
      await Promise.race([this.open(timeoutMs), timeout]);
      await Promise.race([this.loadLists(), timeout]);
      this.state = { status: 'connected' };
    } catch (e) {
      const stderr = this.stdio?.stderrTail();
      await this.closeClient();
      const message = errorMessage(e).replace(/\s+/g, ' ').slice(0, 300) + (stderr ? ` — stderr: ${stderr.split('\n').slice(-3).join(' | ')}` : '');
      this.state = needsLogin(e) ? { status: 'needs-auth', error: `needs login: run moat mcp login ${this.config.name}` } : { status: 'failed', error: message };
    } finally {
      clearTimeout(timer);
      this.o.onChange();
    }
  }

  private async open(timeoutMs: number): Promise<void> {
    const config = this.config;
    if (config.transport === 'stdio') {
      this.stdio = await launchStdio(config, this.o.launch);
      this.sandboxed = this.stdio.sandboxed;
      this.unsandboxedReason = this.stdio.unsandboxedReason;
      await this.attach(this.stdio.transport, timeoutMs);
      return;
    }
    const authProvider = this.o.authProvider?.(config);
    const opts = { env: this.o.launch.env, ...(authProvider === undefined ? {} : { authProvider, authHosts: authProvider.authHosts() }) };
    try {
      await this.attach(httpTransport(config, opts), timeoutMs);
      this.transportUsed = config.transport;
    } catch (e) {
      if (config.transport !== 'http' || !SSE_FALLBACK_STATUS.has(httpStatus(e) ?? 0)) throw e;
      await this.closeClient();
      await this.attach(httpTransport(config, opts, 'sse'), timeoutMs);
      this.transportUsed = 'sse';
    }
  }

  private async attach(transport: Transport, timeoutMs: number): Promise<void> {
    const client = this.newClient();
    this.client = client;
    transport.onerror = undefined;
    client.onerror = (e) => {
      // A message past the stdio buffer limit (a server flooding stdout) or a broken stream: drop the connection,
      // which fails the calls in flight at once instead of leaving them to their timeouts.
      if (/exceeded maximum size|Unexpected end|SyntaxError/i.test(errorMessage(e))) {
        this.state = { status: 'failed', error: `sent an invalid or oversized message: ${errorMessage(e)}` };
        void this.closeClient().finally(() => this.o.onChange());
      }
    };
    client.onclose = () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (this.state.status === 'connected') {
        const stderr = this.stdio?.stderrTail();
        this.state = { status: 'failed', error: `the server exited${stderr ? ` — stderr: ${stderr.split('\n').slice(-3).join(' | ')}` : ''}` };
        this.o.onChange();
      }
      void this.stdio?.finish();
    };
    await client.connect(transport, { timeout: timeoutMs });
  }

  private async loadLists(): Promise<void> {
    await Promise.all([this.refresh('tools'), this.refresh('prompts'), this.refresh('resources')]);
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
    opts: { signal: AbortSignal; onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void },
  ): Promise<CallToolResult> {
    const client = this.requireClient();
    const result = await client.callTool({ name, arguments: args }, CallToolResultSchema, {
      signal: opts.signal,
      timeout: this.config.toolTimeoutMs,
      resetTimeoutOnProgress: false,
      ...(opts.onProgress === undefined ? {} : { onprogress: (p) => opts.onProgress?.(p.progress, p.total, p.message) }),
    });
    return result as CallToolResult;
  }

  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.requireClient().readResource({ uri }, { timeout: this.config.toolTimeoutMs, ...(signal === undefined ? {} : { signal }) });
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    return this.requireClient().getPrompt({ name, arguments: args }, { timeout: this.config.toolTimeoutMs });
  }

  /** Tell the server the roots changed (--add-dir at run time). */
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

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    const stdio = this.stdio;
    this.stdio = undefined;
    // Started before the client closes: the SDK's close waits on timers that do not keep moat alive,
    // so at exit it may never return; the server's temp folder must not depend on it.
    const finishing = stdio?.finish().catch(() => []);
    if (client !== undefined) await client.close().catch(() => undefined);
    await finishing;
  }

  /** Closes and connects again (/mcp reconnect). */
  async reconnect(): Promise<void> {
    await this.starting;
    await this.closeClient();
    this.tools = [];
    this.prompts = [];
    this.resources = [];
    await this.start();
  }

  async close(): Promise<void> {
    await this.closeClient();
    if (this.state.status === 'connected' || this.state.status === 'connecting') this.state = { status: 'failed', error: 'closed' };
  }
}
