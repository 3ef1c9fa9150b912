export * from './types.ts';
export { ToolRegistry, toolInputJsonSchema } from './registry.ts';
export { runTool, unknownToolResult, abortedToolResult, invalidInputMessage, ABORTED_TOOL_MESSAGE } from './run-tool.ts';
export { resolveToolPath, intentPath, displayPath, expandHome, type ToolPath } from './paths.ts';
export { builtinTools } from './builtin/index.ts';
export * from './permissions/index.ts';
