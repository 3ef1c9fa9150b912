/** A value that never prints (the API key). */
const REDACTED = '[redacted]';

/**
 * A value that must never be printed (the API key). It is kept in a private
 * field, so logging, JSON.stringify, string interpolation and Bun.inspect of
 * a config object all show `[redacted]`; only `reveal()` gives the value.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return REDACTED;
  }
}
