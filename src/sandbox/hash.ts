/** The SHA-256 that names a component in the caches and the tool index (hex). */
export function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher('sha256').update(bytes).digest('hex');
}
