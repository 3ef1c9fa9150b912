/** The WebFetch tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

/**
 * web_fetch: one GET through the sandbox's network policy (the same one the
 * wasi:http host uses): the name is resolved and the connection made to the
 * checked address, so private, loopback, link-local and metadata addresses
 * are refused even behind a DNS name. Redirects are followed here, by hand,
 * each hop checked again; a redirect to another host is reported rather than
 * followed, because permission was given for this host only.
 */

export interface WebFetchOptions {
  /** Tests only: reach loopback and private addresses (a local test server). Never set by the CLI. */
  allowPrivate?: boolean;
  maxRedirects?: number;
  /** Bytes downloaded at most. */
  maxBytes?: number;
  timeoutMs?: number;
  /** Characters of content returned to the model at most. */
  maxChars?: number;
}

export const WEB_FETCH_DEFAULTS = { maxRedirects: 5, maxBytes: 5 * 1024 * 1024, timeoutMs: 30_000, maxChars: 100_000 } as const;

export const inputSchema = once(() =>
  z.strictObject({
    url: z.string().min(1).describe('The full http:// or https:// URL to fetch.'),
    max_length: z.number().int().min(1000).max(WEB_FETCH_DEFAULTS.maxChars).optional().describe('Return at most this many characters of content (default 100000).'),
  }),
);

export type WebFetchInput = z.infer<ReturnType<typeof inputSchema>>;

export function hostOf(raw: string): string | undefined {
  try {
    return new URL(raw).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return undefined;
  }
}
