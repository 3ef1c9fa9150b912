// An MCP tool result → moat's: text, images and resource links for the model, structured content kept; what is too big or binary saved to a file.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ImageMediaType, ImagePart, TextPart } from '../providers/index.ts';
import type { ToolResult } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';

const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** The usual rough measure (about four characters a token): the cap is a budget, not an exact count. */
export const CHARS_PER_TOKEN = 4;

type Part = TextPart | ImagePart;

/**
 * Where a result's binary parts and over-long text go (a file the model can
 * read back); undefined when nothing can be saved, and then the old way
 * holds: described or cut with a note.
 */
export interface ResultSaver {
  /** Writes the data to a new file named after `suffix` (`1.bin`, `output.txt`) and returns its path; throws when it cannot. */
  save(suffix: string, data: string | Uint8Array): string;
}

function describeBlob(kind: string, mimeType: string | undefined, base64: string, saver: ResultSaver | undefined, n: number): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.floor((base64.length * 3) / 4) - padding;
  const what = `${kind}${mimeType === undefined ? '' : ` ${mimeType}`}, ${bytes} bytes`;
  if (saver !== undefined) {
    try {
      const path = saver.save(`${n}${extensionOf(mimeType)}`, Buffer.from(base64, 'base64'));
      return `[${what}, saved to ${path}]`;
    } catch (e) {
      return `[${what}, not shown: could not save it (${errorMessage(e)})]`;
    }
  }
  return `[${what}, not shown]`;
}

/** A file extension for a MIME type the file's reader may go by; `.bin` otherwise. */
function extensionOf(mimeType: string | undefined): string {
  const sub = mimeType?.split(';')[0]?.split('/')[1]?.toLowerCase() ?? '';
  const known: Record<string, string> = { 'plain': '.txt', 'json': '.json', 'pdf': '.pdf', 'gzip': '.gz', 'zip': '.zip', 'png': '.png', 'jpeg': '.jpg', 'gif': '.gif', 'webp': '.webp', 'svg+xml': '.svg', 'mpeg': '.mp3', 'wav': '.wav', 'csv': '.csv', 'html': '.html' };
  return known[sub] ?? '.bin';
}

/** One content block → parts; the kinds the model cannot take in become a one-line description (and a file, when it can be saved). */
function partsOf(block: CallToolResult['content'][number], saver: ResultSaver | undefined, n: number): Part[] {
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text }];
    case 'image':
      if (IMAGE_TYPES.has(block.mimeType)) return [{ type: 'image', mediaType: block.mimeType as ImageMediaType, data: block.data }];
      return [{ type: 'text', text: describeBlob('image', block.mimeType, block.data, saver, n) }];
    case 'audio':
      return [{ type: 'text', text: describeBlob('audio', block.mimeType, block.data, saver, n) }];
    case 'resource_link':
      return [{ type: 'text', text: `[resource ${block.name}: ${block.uri}${block.mimeType === undefined ? '' : ` (${block.mimeType})`}]${block.description === undefined ? '' : ` ${block.description}`}` }];
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') return [{ type: 'text', text: `[resource ${r.uri}]\n${r.text}` }];
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      if (r.mimeType !== undefined && IMAGE_TYPES.has(r.mimeType)) return [{ type: 'image', mediaType: r.mimeType as ImageMediaType, data: blob }];
      return [{ type: 'text', text: `[resource ${r.uri}] ${describeBlob('binary', r.mimeType, blob, saver, n)}` }];
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

/** How much of a saved result the model sees at once: enough to know what it is and how to read on. */
const PREVIEW_CHARS = 2000;

/**
 * A result past the cap, saved whole to a file as Claude Code does, its path
 * and a preview for the model (which reads on with Read's offset and limit,
 * or greps it); images that fit stay. Undefined when it fits, or when it
 * cannot be saved (then it is cut with a note).
 */
function saveOverCap(parts: Part[], o: { tool: string; maxTokens: number; saver?: ResultSaver }): Part[] | undefined {
  const budget = o.maxTokens * CHARS_PER_TOKEN;
  const size = parts.reduce((n, p) => n + (p.type === 'text' ? p.text.length : p.data.length), 0);
  if (size <= budget || o.saver === undefined) return undefined;
  const text = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
  if (text.length <= PREVIEW_CHARS) return undefined;
  let path: string;
  try {
    path = o.saver.save('output.txt', text);
  } catch {
    return undefined;
  }
  const lines = text.split('\n').length;
  const out: Part[] = [
    {
      type: 'text',
      text:
        `[${o.tool} returned ${text.length.toLocaleString('en-US')} characters (${lines.toLocaleString('en-US')} lines), over the ${o.maxTokens}-token limit for one result. ` +
        `The whole output was saved to ${path}: read it in parts with the Read tool (offset and limit) or search it with Grep. Its first ${PREVIEW_CHARS} characters:]\n` +
        text.slice(0, PREVIEW_CHARS),
    },
  ];
  let used = PREVIEW_CHARS;
  for (const p of parts) {
    if (p.type !== 'image' || used + p.data.length > budget) continue;
    out.push(p);
    used += p.data.length;
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
export function mapToolResult(result: CallToolResult, o: { tool: string; maxTokens: number; saver?: ResultSaver }): ToolResult {
  const parts = result.content.flatMap((block, i) => partsOf(block, o.saver, i + 1));
  const structured = result.structuredContent;
  if (structured !== undefined && !textCarries(parts, structured)) {
    const json = JSON.stringify(structured);
    parts.push({ type: 'text', text: parts.some((p) => p.type === 'text') ? `Structured result: ${json}` : json });
  }
  const capped = saveOverCap(parts, o) ?? capParts(parts, o.maxTokens, o.tool);
  const onlyText = capped.every((p) => p.type === 'text');
  const content: ToolResult['content'] = onlyText ? capped.map((p) => (p as TextPart).text).join('\n') : capped;
  const text = capped.filter((p): p is TextPart => p.type === 'text').map((p) => p.text).join('\n');
  return {
    content: content === '' ? '(no output)' : content,
    ...(result.isError === true ? { isError: true } : {}),
    display: { type: 'text', text: text.length > 2000 ? `${text.slice(0, 2000)}…` : text },
  };
}
