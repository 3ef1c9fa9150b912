/** What the router tells the user about a model that lacks something the request has, in one line each. */
import { oneLine } from './failure.ts';
import type { ProviderError } from './types.ts';

export function omittedNotice(what: 'images' | 'tools', label: string): string {
  return what === 'images'
    ? `${label} does not accept images: they are sent as "[image omitted]" (/model switches to a model that takes them)`
    : `${label} does not take tools (tools = false in its model entry): it is sent none and answers in text`;
}

/**
 * How servers say a model cannot see: llama.cpp "image input is not supported by this server" (a 500),
 * "Unsupported content part type: \"image_url\"", vLLM "… is not a multimodal model", DeepSeek "unknown
 * variant `image_url`", OpenRouter "No endpoints found that support image input", Ollama "… does not
 * support images".
 */
const IMAGE_REFUSAL = /\bimages?\b|image_url|input_image|inline_?data|vision|multi-?modal|mmproj|modalit/i;

/** A refusal of the request (not a dropped stream, a rate limit or an outage) that names images. */
export function refusesImages(error: ProviderError): boolean {
  const refused = error.kind === 'bad_request' || (error.kind === 'server' && error.status !== undefined && error.status < 502);
  return refused && IMAGE_REFUSAL.test(error.message);
}

/** Final, not retried: the same request would fail again, here and on any fallback that shares the server. */
export function imagesRefused(error: ProviderError, label: string): ProviderError {
  const message = oneLine(`${label} does not accept images; from now on they are sent to it as "[image omitted]" (/model switches to one that takes them). The server said: ${error.message}`);
  return { ...error, kind: 'bad_request', message };
}
