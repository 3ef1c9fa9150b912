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

/** The built-in tools, in the order the model sees them. */
export function builtinTools(): AnyTool[] {
  return [bashTool, globTool, grepTool, lsTool, readTool, editTool, writeTool, todoWriteTool, webFetchTool, httpRequestTool];
}

export { bashTool, editTool, globTool, grepTool, lsTool, readTool, todoWriteTool, writeTool, webFetchTool, createWebFetchTool, httpRequestTool, createHttpRequestTool };
