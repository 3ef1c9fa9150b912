/** Builds the ToolContext each tool call runs with. */
import type { SandboxGrant, SandboxPolicy } from '../contracts/index.ts';
import type { Store } from '../store/index.ts';
import type { TodoItem, ToolContext } from '../tools/index.ts';
import type { AgentEvent } from './events.ts';

export interface ContextSource {
  sessionId: string;
  cwd: string;
  roots: readonly string[];
  bashTimeoutMs: number;
  /** The OS sandbox processes run in; absent where no sandbox was configured (tests, embedders). */
  processSandbox?: SandboxPolicy;
  readFiles: Set<string>;
  todos: { get(): TodoItem[]; set(items: TodoItem[]): void };
  /** The session's store. */
  store(): Store;
  emit(e: AgentEvent): void;
}

/** The call a context is made for. */
export interface ToolCallScope {
  toolUseId: string;
  /** Paths outside the roots the user approved for this call. */
  approvedPaths: string[];
  signal: AbortSignal;
  /** The sandbox grant the permission answer gave, if any. */
  sandbox?: SandboxGrant | undefined;
}

/**
 * What one tool call sees. Everything comes from the session that runs it —
 * a sub-agent's cwd and roots are its worktree — never from globals.
 */
export function makeToolContext(src: ContextSource, { toolUseId, approvedPaths, signal, sandbox }: ToolCallScope): ToolContext {
  return {
    ...(src.processSandbox === undefined ? {} : { processSandbox: src.processSandbox }),
    ...(sandbox === undefined ? {} : { sandbox }),
    cwd: src.cwd,
    roots: src.roots,
    approvedPaths,
    signal,
    sessionId: src.sessionId,
    toolUseId,
    bashTimeoutMs: src.bashTimeoutMs,
    files: {
      markRead: (p) => src.readFiles.add(p),
      wasRead: (p) => src.readFiles.has(p),
    },
    todos: {
      get: () => src.todos.get(),
      set: (items) => {
        src.todos.set(items);
        src.store().sessions.setTodos(src.sessionId, items);
        src.emit({ type: 'todos', items });
      },
    },
    onUpdate: (display) => src.emit({ type: 'tool_update', toolUseId, display }),
  };
}
