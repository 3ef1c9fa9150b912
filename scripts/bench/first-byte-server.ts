/**
 * A raw TCP model server for first-byte benches: the first byte of each
 * connection is the time the request went out (Bun.serve would only tell
 * once the headers were parsed). It answers every request with one short
 * Anthropic SSE answer and closes the connection.
 */
import { framesFor, reply } from '../../test/support/fake-anthropic.ts';

export interface FirstByteServer {
  port: number;
  /** `hook` runs, once, at the first byte of the next connection. */
  onNextFirstByte(hook: (() => void) | undefined): void;
  stop(): void;
}

export function startFirstByteServer(): FirstByteServer {
  const answer = new TextEncoder().encode(
    framesFor(reply().text('ok').build(), 'claude-sonnet-4-5', 1)
      .map((f) => ('event' in f ? `event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n` : ''))
      .join(''),
  );
  let hook: (() => void) | undefined;
  const listener = Bun.listen<{ buf: string; seen: boolean }>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open(s) {
        s.data = { buf: '', seen: false };
      },
      data(s, chunk) {
        if (!s.data.seen) {
          s.data.seen = true;
          const h = hook;
          hook = undefined;
          h?.();
        }
        s.data.buf += chunk.toString('latin1');
        const end = s.data.buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(s.data.buf.slice(0, end))?.[1] ?? 0);
        if (s.data.buf.length - end - 4 < length) return;
        s.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: ${answer.length}\r\nconnection: close\r\n\r\n`);
        s.write(answer);
        s.end();
      },
    },
  });
  return {
    port: listener.port,
    onNextFirstByte: (h) => void (hook = h),
    stop: () => listener.stop(true),
  };
}
