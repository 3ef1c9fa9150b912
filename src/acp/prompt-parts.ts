/** An editor's prompt (text, images, file links, attached file contents) as the parts of a moat user message. */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { UserPart } from '../agent/index.ts';
import { MoatError } from '../util/index.ts';

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

function isImageType(t: string | null | undefined): t is ImageType {
  return t !== null && t !== undefined && IMAGE_TYPES.has(t);
}

/** A `file://` URI as the path the model can read; any other URI as it is. */
function uriPath(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/**
 * The user message's parts, in order. A resource link becomes a line naming
 * the file (the model reads it with its tools, under the usual rules); an
 * embedded resource brings its text with it, wrapped so the model sees where
 * it came from. An image of a type the models take becomes an image part.
 */
export function promptParts(blocks: readonly ContentBlock[]): UserPart[] {
  const parts: UserPart[] = [];
  for (const b of blocks) {
    switch (b.type) {
      case 'text':
        parts.push({ type: 'text', text: b.text });
        break;
      case 'image':
        if (!isImageType(b.mimeType)) throw new MoatError('usage', `images of type ${b.mimeType} are not supported (png, jpeg, gif, webp are)`);
        parts.push({ type: 'image', mediaType: b.mimeType, data: b.data });
        break;
      case 'resource_link':
        parts.push({ type: 'text', text: `[Attached file: ${uriPath(b.uri)}]` });
        break;
      case 'resource': {
        const r = b.resource;
        if ('text' in r) {
          parts.push({ type: 'text', text: `<attached-file path="${uriPath(r.uri)}">\n${r.text}\n</attached-file>` });
        } else if (isImageType(r.mimeType)) {
          parts.push({ type: 'image', mediaType: r.mimeType, data: r.blob });
        } else {
          parts.push({ type: 'text', text: `[Attached binary file: ${uriPath(r.uri)}${r.mimeType ? ` (${r.mimeType})` : ''}]` });
        }
        break;
      }
      case 'audio':
        throw new MoatError('usage', 'audio prompts are not supported');
    }
  }
  if (parts.length === 0) throw new MoatError('usage', 'the prompt is empty');
  return parts;
}
