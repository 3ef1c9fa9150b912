/**
 * Files the build embeds in the executable (`import … with { type: 'file' }`),
 * some of them compressed. Files needed rarely (jco's transpiler wasm, the
 * seccomp helper) are embedded zstd-compressed by scripts/build.ts and
 * decompressed in memory when read; under `bun run` / `bun test` the same
 * import names the installed, uncompressed file. Readers take either.
 */
import { readFileSync } from 'node:fs';

/** zstd's frame magic number (RFC 8878 §3.1.1): 0xFD2FB528, little-endian. */
export function isZstd(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
}

/** An embedded (or installed) file's bytes, decompressed if the build compressed it. */
export function readEmbedded(path: string): Uint8Array {
  const bytes = new Uint8Array(readFileSync(path));
  return isZstd(bytes) ? Bun.zstdDecompressSync(bytes) : bytes;
}
