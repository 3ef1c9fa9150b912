/** ToolSearch's input, in its own module: the tool's JSON Schema is computed from it while bundling. */
import { z } from 'zod';
import { once } from '../util/index.ts';

export const toolSearchInput = once(() =>
  z.strictObject({
    query: z.string().min(1).describe('"select:name[,name…]" for exact names, or keywords'),
    max_results: z.number().int().min(1).max(20).default(5).describe('How many tools to return at most (keyword search)'),
  }),
);
