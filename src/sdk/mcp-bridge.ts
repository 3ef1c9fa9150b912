/**
 * An SDK program's in-process MCP servers (`createSdkMcpServer` in the SDK's
 * `mcpServers`), reached as Claude Code reaches them: each JSON-RPC message
 * goes to the program as `control_request {subtype: "mcp_message"}` and the
 * server's answer comes back in the control response's `mcp_response`.
 */

/** A JSON-RPC message, as the MCP client's transport carries it. */
type JsonRpcMessage = Record<string, unknown>;

/** Sends one control request to the program and resolves with its response (rejects when it answers with an error). */
export type SendControlRequest = (request: Record<string, unknown> & { subtype: string }) => Promise<Record<string, unknown>>;

/** The MCP SDK's Transport, structurally: what McpConnection attaches its client to. */
export interface ProgramMcpTransport {
  start(): Promise<void>;
  send(message: JsonRpcMessage): Promise<void>;
  close(): Promise<void>;
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
}

const isRequest = (m: JsonRpcMessage) => typeof m['method'] === 'string' && 'id' in m;

/**
 * A transport to the program's server `serverName`. A request's answer is
 * handed to the client as the server's message; a program that answers with
 * an error (no such server, a handler that threw outside MCP) fails the
 * request loudly with its words, never silently.
 */
export function programMcpTransport(serverName: string, send: SendControlRequest): ProgramMcpTransport {
  let closed = false;
  const transport: ProgramMcpTransport = {
    start: async () => {},
    send: async (message) => {
      if (closed) throw new Error(`the program's MCP server ${serverName} is closed`);
      let response: Record<string, unknown>;
      try {
        response = await send({ subtype: 'mcp_message', server_name: serverName, message });
      } catch (e) {
        const error = new Error(`the program did not answer for its MCP server ${serverName}: ${e instanceof Error ? e.message : String(e)}`);
        // A request waits for its answer: fail it now, with the program's words, rather than at its timeout.
        if (isRequest(message)) {
          transport.onmessage?.({ jsonrpc: '2.0', id: message['id'], error: { code: -32603, message: error.message } });
          return;
        }
        throw error;
      }
      const answer = response['mcp_response'];
      // Notifications are answered with a placeholder; only a request's answer is the server's.
      if (isRequest(message) && typeof answer === 'object' && answer !== null) transport.onmessage?.(answer as JsonRpcMessage);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      transport.onclose?.();
    },
  };
  return transport;
}
