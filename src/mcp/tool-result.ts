// An MCP tool result → moat's: text, images and resource links for the model, structured content kept, capped with a note.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ImageMediaType, ImagePart, TextPart } from '../providers/index.ts';
import type { ToolResult } from '../tools/index.ts';

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The usual rough measure (about four characters a token): the cap is a budget, not an exact count. */
export const CHARS_PER_TOKEN = 4;

type Part = TextPart | ImagePart;

function describeBlob(kind: string, mimeType: string | undefined, base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return `[${kind}${mimeType === undefined ? '' : ` ${mimeType}`}, ${bytes} bytes, not shown]`;
}

/** One content block → parts; the kinds the model cannot take in become a one-line description. */
function partsOf(block: CallToolResult['content'][number]): Part[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image':
      if (IMAGE_TYPES.has(block.mimeType)) return [{ type: 'image', mediaType: block.mimeType as ImageMediaType, data: block.data }];
      return [{ type: 'text', text: describeBlob('image', block.mimeType, block.data) }];
    case 'audio':
      return [{ type: 'text', text: describeBlob('audio', block.mimeType, block.data) }];
    case 'resource_link':
      return [{ type: 'text', text: `[resource ${block.name}: ${block.uri}${block.mimeType === undefined ? '' : ` (${block.mimeType})`}]${block.description === undefined ? '' : ` ${block.description}`}` }];
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return [{ type: 'text', text: `[resource ${r.uri}]\n${r.text}` }];
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      if (r.mimeType !== undefined && IMAGE_TYPES.has(r.mimeType)) return [{ type: 'image', mediaType: r.mimeType as ImageMediaType, data: blob }];
      return [{ type: 'text', text: `[resource ${r.uri}] ${describeBlob('binary', r.mimeType, blob)}` }];
    }
    default:
      return [{ type: 'text', text: `[unsupported content: ${JSON.stringify(block).slice(0, 200)}]` }];
  }
}

/**
 * Caps the text at `maxTokens` (estimated); images count by their encoded
 * size, and one that does not fit is replaced by a note. The note says what
 * was cut and how to get less.
 */
function capParts(parts: Part[], maxTokens: number, tool: string): Part[] {
  const budget = maxTokens * CHARS_PER_TOKEN;
  let used = 0;
  let cut = 0;
  const out: Part[] = [];
  for (const p of parts) {
    const size = p.type === 'text' ? p.text.length : p.data.length;
    if (used + size <= budget) {
      out.push(p);
      used += size;
      continue;
    }
    if (p.type === 'text' && used < budget) {
      out.push({ type: 'text', text: p.text.slice(0, budget - used) });
      cut += size - (budget - used);
      used = budget;
      continue;
    }
    cut += size;
  }
  if (cut > 0) {
    out.push({
      type: 'text',
      text: `[output truncated: ${tool} returned about ${Math.ceil((used + cut) / CHARS_PER_TOKEN)} tokens, over the ${maxTokens}-token limit; ${Math.ceil(cut / CHARS_PER_TOKEN)} tokens were cut. Ask the tool for less (a narrower query, a page, a limit).]`,
    });
  }
  return out;
}

/** The strings, numbers and booleans in a JSON value (its keys left out). */
function leaves(value: unknown, out: string[] = []): string[] {
  if (value === null || value === undefined) return out;
  if (typeof value === 'object') {
    for (const v of Object.values(value)) leaves(v, out);
    return out;
  }
  out.push(String(value));
  return out;
}

/**
 * Whether the text already says everything the structured content does: it
 * is that JSON (what the spec asks servers to send along), or holds each of
 * its values (server-filesystem sends `{content: <the text>}`). Then sending
 * it again would only double the tokens.
 */
function textCarries(parts: readonly Part[], structured: unknown): boolean {
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  if (text === '') return false;
  // A string as it appears in JSON text, for texts that are the JSON pretty-printed.
  const escaped = (v: string) => JSON.stringify(v).slice(1, -1);
  return leaves(structured).every((v) => text.includes(v) || text.includes(escaped(v)));
}

/**
 * A CallToolResult as moat's ToolResult. Structured content goes to the model
 * as JSON after the server's text, unless that text already says it: ToolResult
 * has only the model's content and the UI's display, so this is where it is
 * kept (a separate machine-readable field would change every tool's result).
 */
export function mapToolResult(result: CallToolResult, o: { tool: string; maxTokens: number }): ToolResult {
  const parts = result.content.flatMap(partsOf);
  const structured = result.structuredContent;
  if (structured !== undefined && !textCarries(parts, structured)) {
    const json = JSON.stringify(structured);
    parts.push({ type: 'text', text: parts.some((p) => p.type === 'text') ? `Structured result: ${json}` : json });
  }
  const capped = capParts(parts, o.maxTokens, o.tool);
  const onlyText = capped.every((p) => p.type === 'text');
  const content: ToolResult['content'] = onlyText ? capped.map((p) => (p as TextPart).text).join('\n') : capped;
  const text = capped.filter((p): p is TextPart => p.type === 'text').map((p) => p.text).join('\n');
  return {
    content: content === '' ? '(no output)' : content,
    ...(result.isError === true ? { isError: true } : {}),
    display: { type: 'text', text: text.length > 2000 ? `${text.slice(0, 2000)}…` : text },
  };
}
