/**
 * A server's `elicitation/create` forwarded to the Agent SDK program as
 * Claude Code forwards it: `control_request {subtype: "elicitation"}`; the
 * program's `onElicitation` answers (the SDK itself declines when the program
 * has none), and the answer goes back to the server.
 */
import { z } from 'zod';
import { once } from '../util/index.ts';
import type { SendControlRequest } from './mcp-bridge.ts';

/** What an elicitation asks, as MCP gives it (form mode: a flat JSON Schema of the fields wanted). */
export interface ElicitationAsk {
  message: string;
  requestedSchema?: { properties?: Record<string, unknown> } & Record<string, unknown>;
}

const answerShape = once(() =>
  z.object({
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
  }),
);
export type ElicitationAnswer = z.infer<ReturnType<typeof answerShape>>;

export function programElicitation(program: SendControlRequest): (server: string, ask: ElicitationAsk) => Promise<ElicitationAnswer> {
  return async (server, ask) => {
    const schema = ask.requestedSchema;
    const raw = await program({
      subtype: 'elicitation',
      mcp_server_name: server,
      message: ask.message,
      mode: 'form',
      ...(schema === undefined ? {} : { requested_schema: schema, property_order: Object.keys(schema.properties ?? {}) }),
    });
    const parsed = answerShape().safeParse(raw);
    // An answer that is not one: the server hears "cancel" rather than a made-up value.
    return parsed.success ? parsed.data : { action: 'cancel' };
  };
}
