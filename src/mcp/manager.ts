// All MCP servers of one moat process: started in the background and in parallel, their tools a live source for the registry.
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, SourceInstructions, ToolSource } from '../tools/index.ts';
import type { ConnectionOptions, McpConnection, ServerState } from './connection.ts';
import type { McpServerConfig } from './server-config.ts';
import type { CachedToolList, ToolListCache } from './tool-list-cache.ts';

export interface ServerStatus {
  name: string;
  scope: McpServerConfig['scope'];
  origin: string;
  transport: McpServerConfig['transport'];
  /** stdio only: whether the OS sandbox wraps it (undefined until it started). */
  sandboxed: boolean | undefined;
  unsandboxedReason: string | undefined;
  state: ServerState;
  /** What the server called itself in initialize (once connected). */
  serverInfo: { name: string; version: string } | undefined;
  tools: string[];
  prompts: string[];
  resources: number;
}

export interface ManagerOptions extends Omit<ConnectionOptions, 'onChange' | 'roots'> {
  /** Folders announced as roots at first: the working folder and --add-dir folders (setRoots replaces them). */
  roots: readonly string[];
  /** Project servers waiting for the user's approval: listed, not started. */
  needsApproval?: readonly string[];
  /** Where results too big for the model, and binary parts, are saved as files (the model is given the path). */
  resultsDir?: string;
  /** Called once per server that fails or needs login (the TUI status line, -p's stderr); not for failures caused by close(). */
  onFailure?(name: string, error: string): void;
  /** Tool lists from earlier runs: offered while their servers connect, and saved once each server has answered. */
  toolCache?: ToolListCache;
}

/**
 * The code behind a running server (the connection, its transports, OAuth and
 * network policy, the tool wrappers), imported when the first server starts:
 * most runs have no server and never load it, and -p starts its servers only
 * once the first request is on its way (mcp-start.ts). The specific files, not
 * index.ts: importing a folder's index.ts with import() would keep all of it
 * in the modules loaded at start-up.
 */
async function importConnections() {
  const [connection, tool, resources] = await Promise.all([import('./connection.ts'), import('./mcp-tool.ts'), import('./resource-tools.ts')]);
  return { McpConnection: connection.McpConnection, mcpTool: tool.mcpTool, resourceTools: resources.resourceTools };
}

type ConnectionCode = Awaited<ReturnType<typeof importConnections>>;

function toolAllowed(config: McpServerConfig, tool: McpTool): boolean {
  if (config.enabledTools !== undefined && !config.enabledTools.includes(tool.name)) return false;
  return !config.disabledTools.includes(tool.name);
}

export class McpManager implements ToolSource {
  /** By name (a name given twice: the later config, in the first one's place). */
  private readonly servers: ReadonlyMap<string, McpServerConfig>;
  /** Each server's state until its connection exists. */
  private readonly early = new Map<string, ServerState>();
  /** One per server, made once the connection code has loaded (at the first start). */
  private readonly connections = new Map<string, McpConnection>();
  private code: ConnectionCode | undefined;
  private loading: Promise<void> | undefined;
  private readonly pending = new Set<string>();
  /** Servers whose start was asked for once. */
  private readonly begun = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly reported = new Set<string>();
  /** The tool objects per connection and tools list: rebuilt only when a server's list changes. */
  private readonly toolCache = new WeakMap<McpConnection, { from: McpTool[]; tools: AnyTool[] }>();
  private resourceToolList: AnyTool[] | undefined;
  /** Each server's tool list from its last run (read at construction), and the tools made of it while it connects. */
  private readonly cachedLists = new Map<string, CachedToolList>();
  private readonly cachedTools = new Map<string, AnyTool[]>();
  /** The list last saved per server: saved again only when the server's list object changes. */
  private readonly savedLists = new Map<string, McpTool[]>();
  private started = false;
  private closed = false;
  private roots: readonly string[];

  constructor(
    servers: readonly McpServerConfig[],
    private readonly o: ManagerOptions,
  ) {
    this.servers = new Map(servers.map((c) => [c.name, c]));
    this.roots = [...o.roots];
    const needs = new Set(o.needsApproval ?? []);
    for (const config of this.servers.values()) {
      if (needs.has(config.name)) this.pending.add(config.name);
      this.early.set(config.name, needs.has(config.name) ? { status: 'needs-approval' } : config.enabled ? { status: 'connecting' } : { status: 'disabled' });
      const cached = config.enabled ? o.toolCache?.get(config) : undefined;
      if (cached !== undefined) this.cachedLists.set(config.name, cached);
    }
  }

  /** Imports the connection code once and makes every server's connection, in the state it had so far. */
  private load(): Promise<void> {
    this.loading ??= importConnections().then((code) => {
      for (const config of this.servers.values()) {
        const conn = new code.McpConnection(config, { ...this.o, roots: () => this.roots, onChange: () => this.changed(conn) });
        conn.state = this.early.get(config.name) ?? conn.state;
        this.connections.set(config.name, conn);
      }
      this.code = code;
    });
    return this.loading;
  }

  /**
   * Starts these servers, once their connections exist; nothing starts once the manager is closed.
   * Resolves when their attempts settle. A server started before (startNow, then startAll) is not started again.
   */
  private start(names: readonly string[]): Promise<void> {
    const fresh = names.filter((n) => !this.begun.has(n));
    // Nothing to start: the connection code is not loaded for it (a first request waits on this).
    if (fresh.length === 0 && this.code === undefined && this.loading === undefined) return Promise.resolve();
    for (const n of fresh) this.begun.add(n);
    const run = async () => {
      if (this.closed) return;
      await Promise.all(fresh.map((name) => this.connections.get(name)?.start()));
    };
    return this.code !== undefined ? run() : this.load().then(run);
  }

  /** Starts these servers now, ahead of startAll; resolves when each is connected or has failed. */
  startNow(names: readonly string[]): Promise<void> {
    return this.start(names.filter((n) => this.servers.get(n)?.enabled === true && !this.pending.has(n)));
  }

  /**
   * Starts the enabled, approved servers no earlier run left a tool list for,
   * and resolves when each has connected or failed (each within its start-up
   * timeout): a run's first request waits for them, as Claude Code's does, so
   * that their tools are in it. Servers with a list start later (startAll).
   */
  startUncached(): Promise<void> {
    return this.startNow([...this.servers.keys()].filter((n) => !this.cachedLists.has(n)));
  }

  /**
   * Starts every enabled, approved server in the background; returns at once.
   * Tools appear in the registry as each server connects. Once: a second call does nothing.
   */
  startAll(): void {
    if (this.started) return;
    this.started = true;
    const names = [...this.servers.values()].filter((c) => c.enabled && !this.pending.has(c.name)).map((c) => c.name);
    if (names.length > 0) void this.start(names);
  }

  /** Starts project servers the user just approved. */
  approve(names: readonly string[]): void {
    const approved = names.filter((name) => this.pending.delete(name));
    for (const name of approved) {
      const conn = this.connections.get(name);
      if (conn === undefined) this.early.set(name, { status: 'connecting' });
      else conn.state = { status: 'connecting' };
    }
    if (approved.length > 0) void this.start(approved);
  }

  /**
   * The session's folders changed (the folder was trusted and its settings add
   * folders): later roots/list requests get the new list, and every server
   * that finished connecting is sent notifications/roots/list_changed (moat
   * declares roots.listChanged, so servers may rely on it). A server still
   * connecting asks for the list itself; the same list again sends nothing.
   */
  async setRoots(paths: readonly string[]): Promise<void> {
    const next = [...new Set(paths)];
    if (next.length === this.roots.length && next.every((p, i) => p === this.roots[i])) return;
    this.roots = next;
    await Promise.all(this.connected().map((c) => c.rootsChanged()));
  }

  /** Resolves when every start attempt under way has settled (tests, and `moat mcp list`). */
  async settled(): Promise<void> {
    await this.loading;
    await Promise.all([...this.connections.values()].map((c) => c.settled()));
  }

  private changed(conn: McpConnection): void {
    const s = conn.state;
    // A run that ends while a server is still starting closed it: that is no failure of the server's.
    if (this.closed) {
      for (const l of this.listeners) l();
      return;
    }
    if (s.status === 'connected' && this.o.toolCache !== undefined && this.savedLists.get(conn.config.name) !== conn.tools) {
      this.savedLists.set(conn.config.name, conn.tools);
      this.o.toolCache.put(conn.config, conn.serverInfo?.version ?? '', conn.tools);
    }
    if ((s.status === 'failed' || s.status === 'needs-auth') && !this.reported.has(conn.config.name)) {
      this.reported.add(conn.config.name);
      this.o.onFailure?.(conn.config.name, s.error);
    }
    if (s.status === 'connected') this.reported.delete(conn.config.name);
    for (const l of this.listeners) l();
  }

  /** Called on every change of a server's state or lists; returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The server's config, whether or not it ever started. */
  config(name: string): McpServerConfig | undefined {
    return this.servers.get(name);
  }

  /** The server's connection; undefined until the first server started (before that, none has anything to offer). */
  get(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  connected(): McpConnection[] {
    return [...this.connections.values()].filter((c) => c.state.status === 'connected');
  }

  /**
   * ToolSource: the tools of every connected server, filtered by
   * enabled_tools/disabled_tools, plus the resource tools; for a server still
   * connecting, the tools its last run listed (a call waits for the server).
   */
  tools(): readonly AnyTool[] {
    const code = this.code;
    const out: AnyTool[] = [];
    for (const config of this.servers.values()) {
      const conn = this.connections.get(config.name);
      // A server that crashed keeps its tools until its one restart: the next call starts it again.
      if (conn !== undefined && code !== undefined && (conn.state.status === 'connected' || conn.restartable())) {
        let cached = this.toolCache.get(conn);
        if (cached === undefined || cached.from !== conn.tools) {
          cached = { from: conn.tools, tools: conn.tools.filter((t) => toolAllowed(conn.config, t)).map((t) => code.mcpTool(conn, t, this.o.resultsDir)) };
          this.toolCache.set(conn, cached);
        }
        out.push(...cached.tools);
      } else if ((conn?.state ?? this.early.get(config.name))?.status === 'connecting' && !this.pending.has(config.name)) {
        out.push(...this.toolsFromLastRun(config));
      }
    }
    if (code !== undefined && this.connected().some((c) => c.resources.length > 0)) {
      this.resourceToolList ??= code.resourceTools(this);
      out.push(...this.resourceToolList);
    }
    return out;
  }

  /**
   * The tools a server listed in its last run, each calling it once it has
   * connected. The wrapper code is required here, synchronously: it is small,
   * and the first request must not wait for the connection code to load.
   */
  private toolsFromLastRun(config: McpServerConfig): AnyTool[] {
    const list = this.cachedLists.get(config.name);
    if (list === undefined) return [];
    let tools = this.cachedTools.get(config.name);
    if (tools === undefined) {
      const { mcpTool } = require('./mcp-tool.ts') as typeof import('./mcp-tool.ts');
      const target = {
        config,
        callTool: async (...a: Parameters<McpConnection['callTool']>) => (await this.connectionOnceSettled(config.name, a[2].signal)).callTool(...a),
        takeModelNotice: () => this.connections.get(config.name)?.takeModelNotice(),
      };
      tools = list.tools.filter((t) => toolAllowed(config, t)).map((t) => mcpTool(target, t, this.o.resultsDir));
      this.cachedTools.set(config.name, tools);
    }
    return tools;
  }

  /** The server's connection once it is no longer connecting (started now if it had not been); a call's abort stops the wait. */
  private async connectionOnceSettled(name: string, signal: AbortSignal): Promise<McpConnection> {
    void this.start([name]);
    await this.load();
    const conn = this.connections.get(name);
    if (conn === undefined) throw new Error(`MCP server ${name} is not configured`);
    if (conn.state.status !== 'connecting') return conn;
    await new Promise<void>((resolve, reject) => {
      const done = (): void => {
        unsubscribe();
        signal.removeEventListener('abort', aborted);
      };
      const aborted = (): void => {
        done();
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      const unsubscribe = this.subscribe(() => {
        if (conn.state.status === 'connecting' && !this.closed) return;
        done();
        resolve();
      });
      signal.addEventListener('abort', aborted, { once: true });
      if (signal.aborted) aborted();
    });
    return conn;
  }

  /** ToolSource: the instructions of every connected server that sent some, under the server's name. */
  instructions(): SourceInstructions[] {
    return this.connected().flatMap((c) => (c.instructions === undefined ? [] : [{ from: c.config.name, text: c.instructions }]));
  }

  /** Every server; one whose connection does not exist yet (none started) in its first state, with nothing listed. */
  status(): ServerStatus[] {
    return [...this.servers.values()].map((config) => {
      const c = this.connections.get(config.name);
      return {
        name: config.name,
        scope: config.scope,
        origin: config.origin,
        transport: c?.transportUsed ?? config.transport,
        sandboxed: config.transport === 'stdio' ? c?.sandboxed : undefined,
        unsandboxedReason: c?.unsandboxedReason,
        state: c?.state ?? this.early.get(config.name) ?? { status: 'connecting' },
        serverInfo: c?.serverInfo,
        tools: (c?.tools ?? []).filter((t) => toolAllowed(config, t)).map((t) => t.name),
        prompts: (c?.prompts ?? []).map((p) => p.name),
        resources: c?.resources.length ?? 0,
      };
    });
  }

  async reconnect(name: string): Promise<void> {
    if (this.config(name) === undefined) return;
    await this.load();
    await this.connections.get(name)?.reconnect();
  }

  async close(): Promise<void> {
    // A start still scheduled (after the first request) or waiting for the connection code must not spawn anything once closed.
    this.started = true;
    this.closed = true;
    await this.loading;
    await Promise.all([...this.connections.values()].map((c) => c.close()));
    for (const l of this.listeners) l();
  }
}
