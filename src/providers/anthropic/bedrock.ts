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

export interface BedrockOptions extends CloudOptions {
  /** AWS_REGION. */
  region?: string;
  /** A Bedrock API key (AWS_BEARER_TOKEN_BEDROCK); without one, SigV4 with the AWS_* variables or the default chain. */
  apiKey?: string;
}

export function createBedrockProvider(name: string, o: BedrockOptions): Provider {
  const client = new AnthropicBedrock({
    ...cloudClientOptions(o),
    ...(o.region === undefined ? {} : { awsRegion: o.region }),
    // null, not undefined: the SDK would otherwise read the variable itself, behind the router's back.
    apiKey: o.apiKey ?? null,
  });
  return { name, stream: (request, options) => streamMessages(client, request, options) };
}

