/** The built-in tools, in the order the model sees them. */
import type { AnyTool } from '../types.ts';
import { bashTool } from './bash/index.ts';
import { editTool } from './edit/index.ts';
import { globTool } from './glob/index.ts';
import { grepTool } from './grep/index.ts';
import { lsTool } from './ls/index.ts';
import { readTool } from './read/index.ts';
import { todoWriteTool } from './todo-write/index.ts';
import { createWebFetchTool, webFetchTool } from './web-fetch/index.ts';
import { writeTool } from './write/index.ts';
import { createHttpRequestTool, httpRequestTool } from './http-request/index.ts';
import { builtinJsonSchemas } from './json-schemas.ts';

/** Each tool's input as JSON Schema, converted from its zod schema while bundling (json-schemas.ts). */
const JSON_SCHEMAS: Record<string, Record<string, unknown>> = builtinJsonSchemas();

/**
 * The tools as offered: each carries its JSON Schema, so the first request
 * need not convert them. Copied with their property descriptors, not spread:
 * a spread would call each `inputSchema` getter and build every zod schema
 * at start-up (~0.1 ms each), not at a tool's first call.
 */
const BUILTINS: readonly AnyTool[] = [bashTool, globTool, grepTool, lsTool, readTool, editTool, writeTool, todoWriteTool, webFetchTool, httpRequestTool].map(
  (tool: AnyTool): AnyTool => Object.defineProperties({}, { ...Object.getOwnPropertyDescriptors(tool), jsonSchema: { value: JSON_SCHEMAS[tool.name], enumerable: true } }) as AnyTool,
);

/** The built-in tools, in the order the model sees them. */
export function builtinTools(): AnyTool[] {
  return [...BUILTINS];
}

export { bashTool, editTool, globTool, grepTool, lsTool, readTool, todoWriteTool, writeTool, webFetchTool, createWebFetchTool, httpRequestTool, createHttpRequestTool };
