/** `moat mcp serve`: moat as an MCP server, its `moat` and `moat_reply` tools each running a session's turn. */
import { isAbsolute, resolve } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { errorMessage } from '../util/index.ts';
import { resultText, runTask, type OpenTask, type TaskSession } from './run-task.ts';
import { replyInput, taskInput, taskOutput, type RunOptions } from './task-input.ts';
import type { ToolCallResult, ExposedTool } from './builtin-tools.ts';

export interface ServeDeps {
  version: string;
  /** Where tasks run when the call names no folder. */
  cwd: string;
  open(o: OpenTask): Promise<TaskSession>;
  /** `--tools`: moat's own tools offered beside `moat`, each call run under the server's mode and rules. */
  builtins?: { tools: readonly ExposedTool[]; run(name: string, input: unknown, signal: AbortSignal): Promise<ToolCallResult> };
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

const TASK_DESCRIPTION = [
  'Give a coding task to moat, an AI coding agent with sandboxed tools, and get its final answer.',
  'moat reads, searches and edits files and runs commands in the folder (cwd) on its own until the task is done.',
  'Nobody can approve its calls while it runs: the permission mode and the rules you pass decide, and what would need approval is denied in the default mode',
  '(pass permissionMode "acceptEdits" to let it edit files, or allowedTools rules such as "Bash(npm test)").',
  'The result carries the sessionId: continue the conversation with moat_reply.',
].join(' ');

const REPLY_DESCRIPTION = 'Continue a moat session (the sessionId a moat call returned) with a new message, and get its next answer.';

/** A caller's relative folder is relative to the server's. */
function folder(base: string, cwd: string | undefined): string {
  if (cwd === undefined) return base;
  return isAbsolute(cwd) ? cwd : resolve(base, cwd);
}

function openOptions(deps: ServeDeps, o: RunOptions): OpenTask {
  return {
    cwd: folder(deps.cwd, o.cwd),
    ...(o.model === undefined ? {} : { model: o.model }),
    ...(o.permissionMode === undefined ? {} : { permissionMode: o.permissionMode }),
    ...(o.allowedTools === undefined ? {} : { allowedTools: o.allowedTools }),
    ...(o.disallowedTools === undefined ? {} : { disallowedTools: o.disallowedTools }),
    ...(o.maxTurns === undefined ? {} : { maxTurns: o.maxTurns }),
  };
}

/** Progress notifications, when the caller asked for them with a progress token. */
function progressOf(extra: Extra): (message: string) => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let step = 0;
  return (message) => {
    step++;
    void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: step, message } }).catch(() => {});
  };
}

/** Opens the session and runs the prompt; a failure to open (a bad folder, an unknown model or session) is the tool's error, in one line. */
async function call(deps: ServeDeps, open: OpenTask, prompt: string, extra: Extra): Promise<CallToolResult> {
  let session: TaskSession;
  try {
    session = await deps.open(open);
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: `moat could not start: ${errorMessage(e)}` }] };
  }
  const progress = progressOf(extra);
  progress(`moat session ${session.id} started`);
  const out = await runTask(session, prompt, extra.signal, progress);
  return { content: [{ type: 'text', text: resultText(out) }], structuredContent: out, isError: out.isError };
}

/**
 * One MCP server with moat's tools; each connection (stdio, or one HTTP
 * request) gets its own. `settled` resolves once every call under way has
 * ended and closed its session (the SDK aborts them when the client goes).
 */
export function moatMcpServer(deps: ServeDeps): { server: McpServer; settled(): Promise<void> } {
  const server = new McpServer({ name: 'moat', version: deps.version }, { capabilities: { tools: {} } });
  const running = new Set<Promise<CallToolResult>>();
  const tracked = (p: Promise<CallToolResult>): Promise<CallToolResult> => {
    running.add(p);
    void p.finally(() => running.delete(p)).catch(() => {});
    return p;
  };
  server.registerTool(
    'moat',
    { title: 'moat: run a coding task', description: TASK_DESCRIPTION, inputSchema: taskInput, outputSchema: taskOutput, annotations: { openWorldHint: true } },
    async (input, extra) => {
      const { prompt, worktree, ...options } = input;
      return tracked(call(deps, { ...openOptions(deps, options), ...(worktree === true ? { worktree: { task: prompt } } : {}) }, prompt, extra));
    },
  );
  server.registerTool(
    'moat_reply',
    { title: 'moat: continue a session', description: REPLY_DESCRIPTION, inputSchema: replyInput, outputSchema: taskOutput, annotations: { openWorldHint: true } },
    async (input, extra) => {
      const { prompt, sessionId, ...options } = input;
      return tracked(call(deps, { ...openOptions(deps, options), resume: sessionId }, prompt, extra));
    },
  );
  const builtins = deps.builtins;
  if (builtins !== undefined) {
    for (const tool of builtins.tools) {
      server.registerTool(tool.name, { description: tool.description, inputSchema: tool.inputSchema, annotations: { readOnlyHint: tool.readOnly } }, (input, extra) =>
        tracked(builtins.run(tool.name, input, extra.signal).then((r): CallToolResult => ({ content: [{ type: 'text', text: r.text }], isError: r.isError }))),
      );
    }
  }
  return {
    server,
    settled: async () => {
      await Promise.allSettled([...running]);
    },
  };
}
