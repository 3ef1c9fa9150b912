/** Parsers for command-line option values, shared by the command definitions. */
import { InvalidArgumentError } from 'commander';

/** A whole number of at least 1; anything else is a usage error naming the flag. */
export function positiveInt(name: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive whole number, got "${v}"`);
    return n;
  };
}

/** A number above 0; anything else is a usage error naming the flag. */
export function positiveNumber(name: string): (v: string) => number {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${name} must be a positive number, got "${v}"`);
    return n;
  };
}

/** A repeatable option: each use adds its value. */
export const collect = (v: string, prev: string[] = []): string[] => [...prev, v];
