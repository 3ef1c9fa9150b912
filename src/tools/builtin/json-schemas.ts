/**
 * The JSON Schema of every built-in tool's input, computed from its zod schema
 * (still the single source). scripts/build.ts evaluates it while bundling, so
 * the binary holds the result as a literal and start-up does not convert a
 * dozen schemas (about 10 ms) before the first model request; under
 * `bun run` and `bun test` it runs as written.
 * Imports each tool directly, not index.ts, which imports this.
 */
import { inputJsonSchema } from '../../util/index.ts';
import type { AnyTool } from '../types.ts';
import { bashTool } from './bash/index.ts';
import { editTool } from './edit/index.ts';
import { globTool } from './glob/index.ts';
import { grepTool } from './grep/index.ts';
import { httpRequestTool } from './http-request/index.ts';
import { lsTool } from './ls/index.ts';
import { readTool } from './read/index.ts';
import { todoWriteTool } from './todo-write/index.ts';
import { webFetchTool } from './web-fetch/index.ts';
import { writeTool } from './write/index.ts';

export function builtinJsonSchemas(): Record<string, Record<string, unknown>> {
  const tools: AnyTool[] = [bashTool, globTool, grepTool, lsTool, readTool, editTool, writeTool, todoWriteTool, webFetchTool, httpRequestTool];
  return Object.fromEntries(tools.map((t) => [t.name, inputJsonSchema(t.inputSchema)]));
}
