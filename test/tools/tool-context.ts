import { rmSync } from 'node:fs';
import { abortedToolResult, invalidInputMessage, runWithPolicy, type AnyTool, type FileState, type TodoItem, type ToolContext, type ToolDisplay, type ToolResult } from '../../src/tools/index.ts';
import { tempDir as makeTempDir } from '../support/temp.ts';

/** A real temp folder (its real path: /tmp may be a symlink elsewhere). */
export function tempDir(): string {
  return makeTempDir('moat-');
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface TestContext extends ToolContext {
  readonly updates: ToolDisplay[];
  readonly todoItems: () => TodoItem[];
  readonly readSet: Set<string>;
}

/** A ToolContext over `cwd` with in-memory file and todo state, as a session would give. */
export function makeContext(cwd: string, overrides: Partial<ToolContext> = {}): TestContext {
  const readSet = new Set<string>();
  const files: FileState = {
    markRead: (p) => void readSet.add(p),
    wasRead: (p) => readSet.has(p),
  };
  let todos: TodoItem[] = [];
  const updates: ToolDisplay[] = [];
  return {
    cwd,
    roots: [cwd],
    approvedPaths: [],
    signal: new AbortController().signal,
    sessionId: 'session-test',
    toolUseId: 'toolu_test',
    files,
    todos: { get: () => todos, set: (items) => void (todos = items) },
    bashTimeoutMs: 120_000,
    onUpdate: (d) => void updates.push(d),
    ...overrides,
    updates,
    todoItems: () => todos,
    readSet,
  };
}

/**
 * One call as the agent makes it: the input checked against the tool's schema
 * (a failure is the instruction the model gets), then run without a
 * per-tool policy. Never throws.
 */
export async function runTool(tool: AnyTool, input: unknown, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.signal.aborted) return abortedToolResult();
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return { content: invalidInputMessage(tool.name, parsed.error.issues), isError: true };
  return runWithPolicy(tool, parsed.data, ctx, undefined);
}
