/**
 * `moat mcp serve --tools`: the session moat's own tools run in when an MCP client calls them. Its
 * "model" is the caller: each request returns the one call the client made (then ends the turn),
 * so the call takes the path a model's call takes (hooks, the permission gate under the server's
 * mode and rules, the OS sandbox) and nothing is decided here.
 */
import type { PermissionMode } from '../contracts/index.ts';
import type { ExposedTool, ToolHost } from '../mcp-serve/index.ts';
import { ZERO_USAGE, type Provider, type ProviderEvent, type ToolUsePart } from '../providers/index.ts';
import { openClientSession } from './client-session.ts';

/** The tools that work without a model or a conversation: files, search, commands, the web. */
const OFFERED = ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Glob', 'Grep', 'LS', 'Bash', 'WebFetch', 'WebSearch', 'HttpRequest'];

export interface ToolServeOptions {
  cwd: string;
  permissionMode?: PermissionMode;
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  warn(line: string): void;
}

/** The caller as a provider: one queued call, answered once; with none queued the turn ends. */
function callerModel(): { provider: Provider; queue(call: ToolUsePart): void } {
  let next: ToolUsePart | undefined;
  return {
    queue: (call) => {
      next = call;
    },
    provider: {
      name: 'mcp-caller',
      async *stream(): AsyncIterable<ProviderEvent> {
        const call = next;
        next = undefined;
        yield { type: 'stop', reason: call === undefined ? 'end_turn' : 'tool_use', message: { role: 'assistant', content: call === undefined ? [] : [call] }, usage: ZERO_USAGE };
      },
    },
  };
}

export async function openToolHost(o: ToolServeOptions): Promise<ToolHost> {
  const model = callerModel();
  const opened = await openClientSession({
    cwd: o.cwd,
    env: process.env,
    interactive: false,
    persist: false,
    provider: model.provider,
    ...(o.permissionMode === undefined ? {} : { permissionMode: o.permissionMode }),
    ...(o.allowedTools === undefined ? {} : { allowedTools: o.allowedTools }),
    ...(o.disallowedTools === undefined ? {} : { disallowedTools: o.disallowedTools }),
    warn: o.warn,
  });
  const tools: ExposedTool[] = [];
  for (const name of OFFERED) {
    const tool = opened.assembly.registry.get(name);
    if (tool === undefined) continue;
    tools.push({ name, description: tool.description, inputSchema: tool.inputSchema, readOnly: tool.effect === 'read' });
  }
  return {
    tools,
    host: opened.host,
    queueCall: (call) => model.queue({ type: 'tool_use', id: call.id, name: call.name, input: call.input }),
    close: opened.close,
  };
}
