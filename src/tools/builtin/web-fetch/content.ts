/** Turns a fetched body into text for the model. */
import type { NodeHtmlMarkdown } from 'node-html-markdown';
import { looksBinary } from '../shared/sniff.ts';

/**
 * A response body → text for the model. HTML becomes Markdown through
 * node-html-markdown (a maintained converter that needs no DOM, so it works
 * in Bun and inside the compiled binary without jsdom); other text passes as
 * it is; anything binary is refused by content type or by a NUL-byte sniff.
 */

export type Converted = { kind: 'text'; text: string; markdown: boolean } | { kind: 'binary'; mediaType: string };

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|ecmascript|x-javascript|x-sh|x-yaml|yaml|toml|x-toml|graphql|sql|x-www-form-urlencoded|ld\+json|rss\+xml|atom\+xml)|[^;]*\+(json|xml))/i;
const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;

let converter: NodeHtmlMarkdown | undefined;

function charsetOf(contentType: string): string {
  const m = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType);
  return m?.[1]?.toLowerCase() ?? 'utf-8';
}

function decode(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

function looksLikeHtml(text: string): boolean {
  return /^\s*(<!doctype html|<html[\s>])/i.test(text.slice(0, 512));
}

/** The converter is imported on first use: most runs never fetch a page, and startup should not pay for it. */
export async function htmlToMarkdown(html: string): Promise<string> {
  // Loaded on first use: with the other readers' libraries (unpdf, image-size, music-metadata, node-html-markdown, web-tree-sitter) up front, -p read-then-answer's peak RSS is 58.7 MB, not 54.8 (bound 55 MB; startup bench, n=20).
  const { NodeHtmlMarkdown: Converter } = await import('node-html-markdown');
  converter ??= new Converter({ ignore: ['script', 'style', 'noscript', 'template', 'svg', 'iframe'], maxConsecutiveNewlines: 2 });
  return converter.translate(html).trim();
}

export async function convertBody(body: Uint8Array, contentType: string): Promise<Converted> {
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const known = mediaType !== '' && mediaType !== 'application/octet-stream';
  if (known && !TEXT_TYPES.test(mediaType) && !HTML_TYPES.test(mediaType)) return { kind: 'binary', mediaType };
  if (looksBinary(body, 4096)) return { kind: 'binary', mediaType: mediaType || 'application/octet-stream' };
  const text = decode(body, charsetOf(contentType));
  if (HTML_TYPES.test(mediaType) || (!known && looksLikeHtml(text))) return { kind: 'text', text: await htmlToMarkdown(text), markdown: true };
  return { kind: 'text', text, markdown: false };
}
