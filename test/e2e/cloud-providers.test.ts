/**
 * End to end: the compiled binary in -p mode on Anthropic's models through
 * Amazon Bedrock and Google Vertex AI, against the fake server speaking their
 * wire formats. The build copies the resource classes of @anthropic-ai/sdk
 * that the Bedrock and Vertex clients build (scripts/cloud-sdk-split.ts), so
 * these adapters run differently in the binary than from source: an answer
 * must come back, and an HTTP error must become the same one line as the
 * adapter run from source makes of it, which holds only while the errors the
 * clients throw are the SDK's one APIError that src/providers/anthropic/errors.ts
 * tests with `instanceof`.
 * Vertex authenticates with Google's application default credentials: here
 * those of a stand-in GCE metadata server (GCE_METADATA_HOST), a source that
 * needs neither gcloud nor a key.
 * Run `bun run build` first (scripts/test.sh does).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Server } from 'bun';
import { createBedrockProvider } from '../../src/providers/anthropic/bedrock.ts';
import { createVertexProvider } from '../../src/providers/anthropic/vertex.ts';
import type { Provider, ProviderError, ProviderRequest } from '../../src/providers/types.ts';
import { httpError, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_TEST_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

const BIN = MOAT_TEST_BIN;
const GOOGLE_TOKEN = 'ya29.from-metadata-server';

let server: FakeAnthropic;
/** Google's GCE metadata server, as much of it as google-auth-library asks for a token. */
let metadata: Server<undefined>;
let sb: Sandbox;

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error('dist/moat-test is missing: run `bun run build` first');
  server = await startFakeAnthropic();
  metadata = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url);
      const headers = { 'metadata-flavor': 'Google' };
      if (req.headers.get('metadata-flavor') !== 'Google') return new Response('missing Metadata-Flavor', { status: 403, headers });
      if (url.pathname === '/computeMetadata/v1/instance/service-accounts/default/token') {
        return Response.json({ access_token: GOOGLE_TOKEN, expires_in: 3599, token_type: 'Bearer' }, { headers });
      }
      return new Response('not found', { status: 404, headers });
    },
  });
});
afterAll(async () => {
  await server.close();
  await metadata.stop(true);
});
beforeEach(() => {
  sb = makeSandbox(server.url);
  const config = join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(config, ['[providers.bedrock]', `base_url = "${server.url}"`, '[providers.vertex]', `base_url = "${server.url}/v1"`, ''].join('\n'));
  Object.assign(sb.env, {
    AWS_REGION: 'us-west-2',
    AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key',
    CLOUD_ML_REGION: 'us-east5',
    ANTHROPIC_VERTEX_PROJECT_ID: 'proj-1',
    GCE_METADATA_HOST: `127.0.0.1:${metadata.port}`,
    METADATA_SERVER_DETECTION: 'assume-present',
  });
  expect(server.remaining()).toBe(0);
  server.requests.length = 0;
});

const moat = (args: string[], env: Record<string, string> = {}) => runMoat(args, { cwd: sb.cwd, env: { ...sb.env, ...env }, bin: BIN });

/** The error the adapter run from source makes of the next scripted response. */
async function sourceError(provider: Provider): Promise<ProviderError> {
  const request: ProviderRequest = { model: MODEL_IDS[provider.name]!, system: '', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 1024 };
  for await (const e of provider.stream(request, { signal: new AbortController().signal, idleTimeoutMs: 5000 })) if (e.type === 'error') return e.error;
  throw new Error('no error event');
}

const MODEL_IDS: Record<string, string> = {
  bedrock: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  vertex: 'claude-sonnet-4-5@20250929',
};

const CLOUDS = [
  {
    name: 'bedrock',
    path: '/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream',
    authorization: 'Bearer bedrock-key',
    fromSource: () => createBedrockProvider('bedrock', { baseURL: server.url, region: 'us-west-2', apiKey: 'bedrock-key' }),
  },
  {
    name: 'vertex',
    path: '/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    authorization: `Bearer ${GOOGLE_TOKEN}`,
    fromSource: () =>
      createVertexProvider('vertex', {
        baseURL: `${server.url}/v1`,
        region: 'us-east5',
        projectId: 'proj-1',
        authClient: { projectId: 'proj-1', getRequestHeaders: async () => new Headers({ authorization: `Bearer ${GOOGLE_TOKEN}` }) } as never,
      }),
  },
] as const;

for (const cloud of CLOUDS) {
  describe(`moat -p --model ${cloud.name}/… (compiled)`, () => {
    const model = `${cloud.name}/${MODEL_IDS[cloud.name]}`;

    test('answers: the request goes to the cloud\'s path with its credentials', async () => {
      server.script(reply().text(`Hello from ${cloud.name}.`));
      expect(await moat(['-p', 'say hello', '--model', model])).toEqual({ code: 0, stdout: `Hello from ${cloud.name}.\n`, stderr: '' });
      expect(server.requests.map((r) => r.path)).toEqual([cloud.path]);
      expect(server.requests[0]?.headers['authorization']).toBe(cloud.authorization);
      expect(JSON.stringify(server.requests[0]?.body)).toContain('say hello');
    });

    test('an HTTP error is the same one line as from source (the SDK\'s APIError, recognised), not retried', async () => {
      const error = httpError(403, { message: `not allowed on ${cloud.name}` });
      server.script(error);
      const expected = await sourceError(cloud.fromSource());
      expect(expected).toMatchObject({ kind: 'auth', status: 403 });
      server.requests.length = 0;

      server.script(error);
      const res = await moat(['-p', 'hi', '--model', model]);
      expect(res.code).toBe(1);
      // As in Claude Code, a failed model request is the run's answer, on stdout.
      expect(res.stdout).toBe(`${expected.message}\n`);
      expect(res.stderr).toBe('');
      expect(server.requests.length).toBe(1);
    });
  });
}

test('Vertex with ANTHROPIC_VERTEX_PROJECT_ID alone never runs gcloud to look for a project (it cost ~0.8 s before every first request)', async () => {
  // A gcloud first on PATH that notes each run; google-auth-library runs `gcloud config config-helper` when it has to find a project itself.
  const bin = join(sb.home, 'fake-bin');
  const called = join(sb.home, 'gcloud-called');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'gcloud'), `#!/bin/sh\necho "$@" >> '${called}'\necho '{}'\n`);
  chmodSync(join(bin, 'gcloud'), 0o755);
  expect(sb.env.GOOGLE_CLOUD_PROJECT).toBeUndefined();
  server.script(reply().text('Hello from vertex.'));
  const res = await moat(['-p', 'say hello', '--model', `vertex/${MODEL_IDS.vertex}`], { PATH: `${bin}:${sb.env.PATH}` });
  expect(res).toEqual({ code: 0, stdout: 'Hello from vertex.\n', stderr: '' });
  expect(server.requests.map((r) => r.path)).toEqual([CLOUDS[1].path]);
  expect(existsSync(called)).toBe(false);
});
