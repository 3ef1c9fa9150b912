/**
 * A value built on its first use and kept: for what start-up should not pay
 * for unless it is needed (zod schemas that only validate files most runs do
 * not have, for one).
 */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}
