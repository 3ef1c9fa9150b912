/** The stream-json input lines and control messages, in Claude Code's shapes (zod: the single source of each). */
import { PERMISSION_MODES } from '../contracts/index.ts';
import { z } from 'zod';

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const imageBlock = z.object({
  type: z.literal('image'),
  source: z.object({ type: z.literal('base64'), media_type: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']), data: z.string() }),
});

/** A prompt from the program: starts a turn. */
export const UserInput = z.object({
  type: z.literal('user'),
  message: z.object({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]),
  }),
  parent_tool_use_id: z.string().nullable().optional(),
  session_id: z.string().optional(),
  uuid: z.string().optional(),
});

/** The hooks an SDK program registers: per event, matchers with the ids of its callbacks. */
export const HookRegistrations = z.record(
  z.string(),
  z.array(z.object({ matcher: z.string().optional(), hookCallbackIds: z.array(z.string()), timeout: z.number().optional() })),
);

export const InitializeRequest = z.object({
  subtype: z.literal('initialize'),
  hooks: HookRegistrations.optional(),
  jsonSchema: z.record(z.string(), z.unknown()).optional(),
  systemPrompt: z.union([z.string(), z.array(z.string())]).optional(),
  appendSystemPrompt: z.string().optional(),
  agents: z.record(z.string(), z.unknown()).optional(),
  /** The SDK's `mcpServersDelivery: 'initialize'`: the servers `--mcp-config` would have carried, as .mcp.json's `mcpServers`. */
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  /** The program's in-process servers (`createSdkMcpServer`), by name: reached through `mcp_message` control requests. */
  sdkMcpServers: z.array(z.string()).optional(),
});

// `auto` is Claude Code's classifier mode; moat runs it as default (stream-json-client.ts).
const PermissionMode = z.enum([...PERMISSION_MODES, 'auto']);

/** Requests from the program to moat. Anything else is answered with an error response naming the subtype. */
export const IncomingRequest = z.discriminatedUnion('subtype', [
  InitializeRequest,
  z.object({ subtype: z.literal('interrupt') }),
  z.object({ subtype: z.literal('set_permission_mode'), mode: PermissionMode }),
  z.object({ subtype: z.literal('set_model'), model: z.string().optional() }),
  z.object({ subtype: z.literal('set_max_thinking_tokens'), max_thinking_tokens: z.number().int().nullable().optional() }),
  z.object({ subtype: z.literal('mcp_status') }),
]);

export const ControlRequestLine = z.object({
  type: z.literal('control_request'),
  request_id: z.string(),
  request: z.object({ subtype: z.string() }).passthrough(),
});

export const ControlResponseLine = z.object({
  type: z.literal('control_response'),
  response: z.discriminatedUnion('subtype', [
    z.object({ subtype: z.literal('success'), request_id: z.string(), response: z.record(z.string(), z.unknown()).optional() }),
    z.object({ subtype: z.literal('error'), request_id: z.string(), error: z.string() }),
  ]),
});

/** Lines moat reads and does nothing with. */
export const IgnoredLine = z.object({ type: z.enum(['keep_alive', 'control_cancel_request', 'update_environment_variables']) }).passthrough();

export const InputLine = z.union([UserInput, ControlRequestLine, ControlResponseLine, IgnoredLine]);

/**
 * The program's answer to `can_use_tool`. `updatedPermissions` may add
 * allow rules ("always"); other update kinds are not applied by moat.
 */
export const PermissionResult = z.discriminatedUnion('behavior', [
  z.object({
    behavior: z.literal('allow'),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
    updatedPermissions: z
      .array(
        z.object({
          type: z.string(),
          rules: z.array(z.object({ toolName: z.string(), ruleContent: z.string().optional() })).optional(),
          behavior: z.string().optional(),
          destination: z.string().optional(),
        }).passthrough(),
      )
      .optional(),
  }),
  z.object({ behavior: z.literal('deny'), message: z.string().optional(), interrupt: z.boolean().optional() }),
]);

export type UserInput = z.infer<typeof UserInput>;
export type ControlRequestLine = z.infer<typeof ControlRequestLine>;
export type ControlResponseLine = z.infer<typeof ControlResponseLine>;
export type InitializeRequest = z.infer<typeof InitializeRequest>;
export type IncomingRequest = z.infer<typeof IncomingRequest>;
export type HookRegistrations = z.infer<typeof HookRegistrations>;
export type PermissionResult = z.infer<typeof PermissionResult>;
