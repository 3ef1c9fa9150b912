/** The providers layer's public surface: the neutral conversation and event types, the accumulator, the adapters' router and catalogue. */
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
export { createAnthropicProvider, type AnthropicProviderOptions } from './anthropic-on-demand.ts';
export { ModelRouter, type ModelRef, type ModelRouterOptions } from './model-router.ts';
export { fitRequest, type Fitted, type FitOptions } from './fit-request.ts';
export { afterFirstEvent } from './after-first-event.ts';
export { loadAdapter } from './load-adapter.ts';
export { ModelCatalog, costOf, type ModelInfo, type ModelOverride, type ModelPrice, type ModelCapabilities } from './catalog.ts';
export { BUILTIN_PROVIDERS, PROVIDER_TYPES, mergeProviders, type ProviderConfig, type ProviderType } from './provider-config.ts';
export { listModels, type ModelListing } from './model-list.ts';
