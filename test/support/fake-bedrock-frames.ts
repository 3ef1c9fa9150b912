/**
 * Anthropic's stream events as Bedrock's `invoke-with-response-stream` sends
 * them: AWS event-stream binary messages (prelude, headers, CRCs, encoded with
 * AWS's own codec), one `chunk` event per Anthropic event, its JSON in
 * base64 under `bytes`. An SSE `error` event becomes an exception message,
 * as Bedrock reports failures mid-stream.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { WireFrame } from './fake-wire.ts';

const codec = new EventStreamCodec(toUtf8, fromUtf8);

export function bedrockFrames(frames: ({ event: string; data: unknown } | { delayMs: number })[]): WireFrame[] {
  return frames.flatMap((f): WireFrame[] => {
    if ('delayMs' in f) return [f];
    if (f.event === 'ping') return [];
    if (f.event === 'error') {
      const error = (f.data as { error?: { message?: string } }).error;
      return [
        {
          bytes: codec.encode({
            headers: {
              ':exception-type': { type: 'string', value: 'modelStreamErrorException' },
              ':content-type': { type: 'string', value: 'application/json' },
              ':message-type': { type: 'string', value: 'exception' },
            },
            body: fromUtf8(JSON.stringify({ message: error?.message ?? 'error' })),
          }),
        },
      ];
    }
    const payload = { bytes: Buffer.from(JSON.stringify(f.data)).toString('base64'), p: 'abcdefghijklmnopqrstuvwxyzABCDEFGH' };
    return [
      {
        bytes: codec.encode({
          headers: {
            ':event-type': { type: 'string', value: 'chunk' },
            ':content-type': { type: 'string', value: 'application/json' },
            ':message-type': { type: 'string', value: 'event' },
          },
          body: fromUtf8(JSON.stringify(payload)),
        }),
      },
    ];
  });
}
