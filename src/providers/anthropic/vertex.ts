/**
 * Anthropic's Messages API on Google Vertex AI: the same stream code over
 * Anthropic's Vertex client, which rewrites the path and authenticates with
 * Google application default credentials. Loaded only when a Vertex model is chosen.
 */
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import type { Provider } from '../types.ts';
import { cloudClientOptions, type CloudOptions } from './cloud.ts';
import { streamMessages } from './stream.ts';

/** Region from CLOUD_ML_REGION, project from ANTHROPIC_VERTEX_PROJECT_ID; Google application default credentials. */
export function createVertexProvider(name: string, o: CloudOptions): Provider {
  const client = new AnthropicVertex(cloudClientOptions(o));
  return { name, stream: (request, options) => streamMessages(client, request, options) };
}
