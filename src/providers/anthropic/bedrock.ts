/**
 * Anthropic's Messages API on Amazon Bedrock: the same stream code over
 * Anthropic's Bedrock client, which rewrites the path, signs the request with
 * the usual AWS credentials and turns Bedrock's binary event stream back into
 * SSE. Loaded only when a Bedrock model is chosen.
 */
import { AnthropicBedrock } from '@anthropic-ai/bedrock-sdk';
import type { Provider } from '../types.ts';
import { cloudClientOptions, type CloudOptions } from './cloud.ts';
import { streamMessages } from './stream.ts';

/** Region from AWS_REGION; credentials from AWS_BEARER_TOKEN_BEDROCK, AWS_* variables or the default chain. */
export function createBedrockProvider(name: string, o: CloudOptions): Provider {
  const client = new AnthropicBedrock(cloudClientOptions(o));
  return { name, stream: (request, options) => streamMessages(client, request, options) };
}

