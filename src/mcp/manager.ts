// All MCP servers of one moat process: started in the background and in parallel, their tools a live source for the registry.
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { AnyTool, ToolSource } from '../tools/index.ts';
import { McpConnection, type ConnectionOptions, type ServerState } from './connection.ts';
import { mcpTool } from './mcp-tool.ts';
import { resourceTools } from './resource-tools.ts';
import type { McpServerConfig } from './server-config.ts';

export interface ServerStatus {
  name: string;
  scope: McpServerConfig['scope'];
  origin: string;
  transport: 'stdio' | 'http' | 'sse';
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
  /** Called once per server that fails or needs login (the TUI status line, -p's stderr). */
  onFailure?(name: string, error: string): void;
}

function toolAllowed(config: McpServerConfig, tool: McpTool): boolean {
  if (config.enabledTools !== undefined && !config.enabledTools.includes(tool.name)) return false;
  return !config.disabledTools.includes(tool.name);
}

export class McpManager implements ToolSource {
  private readonly connections = new Map<string, McpConnection>();
  private readonly pending = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly reported = new Set<string>();
  /** The tool objects per connection and tools list: rebuilt only when a server's list changes. */
  private readonly toolCache = new WeakMap<McpConnection, { from: McpTool[]; tools: AnyTool[] }>();
  private resourceToolList: AnyTool[] | undefined;
  private started = false;
  private roots: readonly string[];

  constructor(
    servers: readonly McpServerConfig[],
    private readonly o: ManagerOptions,
  ) {
    this.roots = [...o.roots];
    const needs = new Set(o.needsApproval ?? []);
    for (const config of servers) {
      const conn = new McpConnection(config, { ...o, roots: () => this.roots, onChange: () => this.changed(conn) });
      if (needs.has(config.name)) {
        conn.state = { status: 'needs-approval' };
        this.pending.add(config.name);
      }
      this.connections.set(config.name, conn);
    }
  }

  /**
   * Starts every enabled, approved server in the background; returns at once.
   * Tools appear in the registry as each server connects. Once: a second call does nothing.
   */
  startAll(): void {
    if (this.started) return;
    this.started = true;
    for (const conn of this.connections.values()) {
      if (conn.config.enabled && !this.pending.has(conn.config.name)) void conn.start();
    }
  }

  /** Starts project servers the user just approved. */
  approve(names: readonly string[]): void {
    for (const name of names) {
      const conn = this.connections.get(name);
      if (conn === undefined || !this.pending.delete(name)) continue;
      conn.state = { status: 'connecting' };
      void conn.start();
    }
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

  get(name: string): McpConnection | undefined {
    return this.connections.get(name);
  }

  connected(): McpConnection[] {
    return [...this.connections.values()].filter((c) => c.state.status === 'connected');
  }

  /** ToolSource: the tools of every connected server, filtered by enabled_tools/disabled_tools, plus the resource tools. */
  tools(): readonly AnyTool[] {
    const out: AnyTool[] = [];
    for (const conn of this.connected()) {
      let cached = this.toolCache.get(conn);
      if (cached === undefined || cached.from !== conn.tools) {
        cached = { from: conn.tools, tools: conn.tools.filter((t) => toolAllowed(conn.config, t)).map((t) => mcpTool(conn, t)) };
        this.toolCache.set(conn, cached);
      }
      out.push(...cached.tools);
    }
    if (this.connected().some((c) => c.resources.length > 0)) {
      this.resourceToolList ??= resourceTools(this);
      out.push(...this.resourceToolList);
    }
    return out;
  }

  status(): ServerStatus[] {
    return [...this.connections.values()].map((c) => ({
      name: c.config.name,
      scope: c.config.scope,
      origin: c.config.origin,
      transport: c.transportUsed,
      sandboxed: c.config.transport === 'stdio' ? c.sandboxed : undefined,
      unsandboxedReason: c.unsandboxedReason,
      state: c.state,
      tools: c.tools.filter((t) => toolAllowed(c.config, t)).map((t) => t.name),
      prompts: c.prompts.map((p) => p.name),
      resources: c.resources.length,
    }));
  }

  async reconnect(name: string): Promise<void> {
    await this.connections.get(name)?.reconnect();
  }

  async close(): Promise<void> {
    // A start still scheduled (after the first request) must not spawn anything once closed.
    this.started = true;
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }
}
