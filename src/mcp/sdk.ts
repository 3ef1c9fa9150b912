/**
 * The parts of the MCP SDK moat uses, imported when the first server starts
 * (or a login runs): a run without MCP servers never evaluates the SDK (its
 * zod schemas, ajv), which would cost every `moat -p` start-up time and memory.
 */
async function importSdk() {
  const [client, auth, http, sse, stdio, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  return {
    Client: client.Client,
    UnauthorizedError: auth.UnauthorizedError,
    auth: auth.auth,
    extractWWWAuthenticateParams: auth.extractWWWAuthenticateParams,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StdioClientTransport: stdio.StdioClientTransport,
    CallToolResultSchema: types.CallToolResultSchema,
    ListRootsRequestSchema: types.ListRootsRequestSchema,
    ElicitRequestSchema: types.ElicitRequestSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
}

export type McpSdk = Awaited<ReturnType<typeof importSdk>>;

let loading: Promise<McpSdk> | undefined;
let loaded: McpSdk | undefined;

/** The SDK, imported once. */
export function loadSdk(): Promise<McpSdk> {
  loading ??= importSdk().then((sdk) => (loaded = sdk));
  return loading;
}

/** The SDK if something imported it already; an error of the SDK's can only exist then. */
export function sdkIfLoaded(): McpSdk | undefined {
  return loaded;
}
