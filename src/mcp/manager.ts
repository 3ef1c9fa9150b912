// All MCP servers of one moat process: started in the background and in parallel, their tools a live source for the registry.
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, SourceInstructions, ToolSource } from '../tools/index.ts';
import type { ConnectionOptions, McpConnection, ServerState } from './connection.ts';
import type { McpServerConfig } from './server-config.ts';

export interface ServerStatus {
  name: string;
  scope: McpServerConfig['scope'];
  origin: string;
  transport: McpServerConfig['transport'];
  /** stdio only: whether the OS sandbox wraps it (undefined until it started). */
  sandboxed: boolean | undefined;
  unsandboxedReason: string | undefined;
  state: ServerState;
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
  /** Called once per server that fails or needs login (the TUI status line, -p's stderr). */
  onFailure?(name: string, error: string): void;
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

  /** ToolSource: the tools of every connected server, filtered by enabled_tools/disabled_tools, plus the resource tools. */
  tools(): readonly AnyTool[] {
    const code = this.code;
    if (code === undefined) return [];
    const out: AnyTool[] = [];
    // A server that crashed keeps its tools until its one restart: the next call starts it again.
    for (const conn of this.connections.values()) {
      if (conn.state.status !== 'connected' && !conn.restartable()) continue;
      let cached = this.toolCache.get(conn);
      if (cached === undefined || cached.from !== conn.tools) {
        cached = { from: conn.tools, tools: conn.tools.filter((t) => toolAllowed(conn.config, t)).map((t) => code.mcpTool(conn, t, this.o.resultsDir)) };
        this.toolCache.set(conn, cached);
      }
      out.push(...cached.tools);
    }
    if (this.connected().some((c) => c.resources.length > 0)) {
      this.resourceToolList ??= code.resourceTools(this);
      out.push(...this.resourceToolList);
    }
    return out;
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
  }
}
