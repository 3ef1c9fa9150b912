/** Binary and image detection from a file's first bytes. */
import type { ImageMediaType } from '../../../providers/index.ts';

/** How many leading bytes decide "binary": the same window git and ripgrep use. */
export const BINARY_SNIFF_BYTES = 8192;

/** A NUL byte in the first `window` bytes (8 KB) means binary (text encodings we read never contain one). */
export function looksBinary(bytes: Uint8Array, window = BINARY_SNIFF_BYTES): boolean {
  const end = Math.min(bytes.length, window);
  const i = bytes.indexOf(0);
  return i !== -1 && i < end;
}

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

/** The image type from magic bytes, whatever the file is called. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | undefined {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, GIF87) || startsWith(bytes, GIF89)) return 'image/gif';
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return 'image/webp';
  return undefined;
}
