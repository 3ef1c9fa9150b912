/** A zod schema as the JSON Schema a model is sent, at run time or computed while bundling. */
import { join } from 'node:path';
import { z } from 'zod';

/** zod writes JavaScript's safe-integer range onto every `.int()`: noise for the model, so it goes. */
const SAFE_INT_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function dropNoise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropNoise);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && SAFE_INT_BOUNDS.has(value)) continue;
    out[key] = dropNoise(value);
  }
  return out;
}

/** The input side of a zod schema (defaults make fields optional) as JSON Schema, without `$schema` and zod's noise. */
export function inputJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dropped, ...json } = schema.toJSONSchema({ io: 'input' }) as Record<string, unknown>;
  return dropNoise(json) as Record<string, unknown>;
}

/**
 * `inputJsonSchema` of the schema `module` (a path under src/) exports as
 * `name`. Under `bun run` and `bun test` it is computed here; scripts/build.ts
 * evaluates every call in src/ while bundling and turns this function into a
 * lookup of the results, so the first model request of a run converts no tool
 * schemas (zod's conversion costs ~1 ms a tool, more for the first). A tool
 * keeps its input schema in a module of its own, which the build can load
 * alone; the tool validates with the zod schema, the single source, and a
 * test compares the two.
 */
export function inputJsonSchemaOf(module: string, name: string): Record<string, unknown> {
  const exports = import.meta.require(join(import.meta.dir, '..', module)) as Record<string, unknown>;
  // A schema built on first use is exported as the function that builds it (util's once).
  const exported = exports[name];
  const schema = typeof exported === 'function' ? (exported as () => unknown)() : exported;
  if (!(schema instanceof z.ZodType)) throw new Error(`${module} exports no zod schema ${name}`);
  return inputJsonSchema(schema);
}
