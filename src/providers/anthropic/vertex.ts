/**
 * Anthropic's Messages API on Google Vertex AI: the same stream code over
 * Anthropic's Vertex client, which rewrites the path and authenticates with
 * Google application default credentials. Loaded only when a Vertex model is chosen.
 */
import { AnthropicVertex } from '@anthropic-ai/vertex-sdk';
import { GoogleAuth } from 'google-auth-library';
import type { Provider } from '../types.ts';
import { cloudClientOptions, type CloudOptions } from './cloud.ts';
import { streamMessages } from './stream.ts';

export interface VertexOptions extends CloudOptions {
  /** CLOUD_ML_REGION. */
  region?: string;
  /** ANTHROPIC_VERTEX_PROJECT_ID; else the credentials' project. */
  projectId?: string;
  /** Google credentials other than the application default ones (impersonation, tests). */
  authClient?: ConstructorParameters<typeof AnthropicVertex>[0] extends infer O ? (O extends { authClient?: infer A } ? A : never) : never;
}

export function createVertexProvider(name: string, o: VertexOptions): Provider {
  const client = new AnthropicVertex({
    ...cloudClientOptions(o),
    ...(o.region === undefined ? {} : { region: o.region }),
    ...(o.projectId === undefined ? {} : { projectId: o.projectId }),
    ...(o.authClient === undefined || o.authClient === null ? {} : { authClient: o.authClient }),
    // The client's own GoogleAuth looks for a project even when it is given one: GOOGLE_CLOUD_PROJECT, then
    // `gcloud config config-helper` (a Python program: 0.8–1.4 s measured here, before every first request, wherever gcloud is installed),
    // then the metadata server. Told the project, it asks none of them.
    ...((o.authClient === undefined || o.authClient === null) && o.projectId !== undefined
      ? { googleAuth: new GoogleAuth({ scopes: 'https://www.googleapis.com/auth/cloud-platform', projectId: o.projectId }) }
      : {}),
  });
  return { name, stream: (request, options) => streamMessages(client, request, options) };
}
