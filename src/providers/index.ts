export * from './messages.ts';
export type * from './types.ts';
export {
  AccumulateError,
  accumulate,
  createAccumulator,
  messageOf,
  openBlockIndex,
  type AccumulatorState,
} from './accumulate.ts';
export { previewPartialJson } from './preview-partial-json.ts';
export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic/index.ts';
