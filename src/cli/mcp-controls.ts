/**
 * What the user does with MCP servers directly (the TUI's MCP part, and
 * `/mcp__server__prompt` in -p): the servers as /mcp shows them and a server
 * prompt as a slash command (queries); approving a project's servers and
 * reconnecting one (what the `approve_mcp_servers` and `reconnect_mcp`
 * operations do); and the text of `@server:uri` resources.
 */
import { dirname } from 'node:path';
import { approveMcpServers, type LoadedConfig } from '../config/index.ts';
import { promptArguments, promptCommandName, promptText, PromptUsageError, resourceText, type McpManager } from '../mcp/index.ts';
import type { OwnerControls, ProtocolAgent } from '../protocol/index.ts';
import type { McpServerView, SessionQueries } from '../tui/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';

interface McpControls {
  queries: Pick<SessionQueries, 'mcpServers' | 'onMcpChange' | 'mcpPrompt'>;
  controls: Required<Pick<OwnerControls<ProtocolAgent>, 'approveMcpServers' | 'reconnectMcp'>>;
  /** The text parts for the prompt's `@server:uri` references (a failed read says why, in place of the content). */
  resourceParts: (refs: readonly string[], signal: AbortSignal) => Promise<string[]>;
}

/** `server:uri` split at the server name, which may not contain a colon. */
function splitRef(ref: string): { server: string; uri: string } {
  const i = ref.indexOf(':');
  return { server: ref.slice(0, i), uri: ref.slice(i + 1) };
}

export function mcpControls(manager: McpManager | undefined, loaded: LoadedConfig): McpControls {
  const findPrompt = (command: string) => {
    for (const s of manager?.status() ?? []) {
      const conn = manager?.get(s.name);
      const prompt = conn?.prompts.find((p) => promptCommandName(s.name, p.name) === command);
      if (conn !== undefined && prompt !== undefined) return { conn, prompt };
    }
    return undefined;
  };
  const unknown = (name: string) => new MoatError('usage', `No MCP server is called ${name}.`);
  const queries: McpControls['queries'] = {
    mcpServers: () =>
      (manager?.status() ?? []).map((s): McpServerView => {
        const conn = manager?.get(s.name);
        return {
          name: s.name,
          origin: s.origin,
          transport: s.transport,
          status: s.state.status,
          ...('error' in s.state ? { error: s.state.error } : {}),
          ...(s.sandboxed === undefined ? {} : { sandboxed: s.sandboxed }),
          tools: s.tools,
          prompts: (conn?.prompts ?? []).map((p) => ({
            command: promptCommandName(s.name, p.name),
            ...(p.description === undefined ? {} : { description: p.description }),
            args: (p.arguments ?? []).map((a) => ({ name: a.name, required: a.required === true })),
          })),
          resources: (conn?.resources ?? []).map((r) => ({ ref: `${s.name}:${r.uri}`, name: r.name })),
        };
      }),
    onMcpChange: (listener) => manager?.subscribe(listener) ?? (() => {}),
    mcpPrompt: async (command, args) => {
      const found = findPrompt(command);
      if (found === undefined) throw new Error(`/${command}: no connected MCP server offers this prompt (/mcp shows the servers).`);
      let values: Record<string, string>;
      try {
        values = promptArguments(command, found.prompt, args);
      } catch (e) {
        if (e instanceof PromptUsageError) throw new Error(e.message);
        throw e;
      }
      try {
        return promptText(await found.conn.getPrompt(found.prompt.name, values));
      } catch (e) {
        throw new Error(`/${command} failed: ${errorMessage(e)}`);
      }
    },
  };
  const controls: McpControls['controls'] = {
    approveMcpServers: (names) => {
      // All or nothing: a name no server has approves none (remembered approvals are for servers that exist).
      const missing = names.find((name) => manager?.config(name) === undefined);
      if (missing !== undefined) throw unknown(missing);
      if (names.length === 0) return;
      // Remembered where the folder's trust is: the config folder the configuration was read from.
      approveMcpServers(loaded.projectRoot, [...names], dirname(loaded.files.user));
      manager?.approve(names);
    },
    reconnectMcp: async (name) => {
      if (manager?.config(name) === undefined) throw unknown(name);
      await manager.reconnect(name);
      return undefined;
    },
  };
  return {
    queries,
    controls,
    resourceParts: async (refs, signal) =>
      Promise.all(
        refs.map(async (ref) => {
          const { server, uri } = splitRef(ref);
          const conn = manager?.get(server);
          if (conn === undefined || conn.state.status !== 'connected') return `<resource server="${server}" uri="${uri}">(not attached: ${server} is not connected)</resource>`;
          try {
            return resourceText(server, uri, await conn.readResource(uri, signal));
          } catch (e) {
            return `<resource server="${server}" uri="${uri}">(could not read: ${errorMessage(e)})</resource>`;
          }
        }),
      ),
  };
}
