/**
 * Mounts the App with Ink (this module is what loads Ink, React and yoga) and
 * hands it the rows a first paint drew: Ink's first write is prefixed with
 * their erase, so its frame replaces them in place.
 */
import { render, type Instance } from 'ink';
import type { AppModel } from './app-model.ts';
import { App } from './app.tsx';
import { takeover, type FirstPaint } from './first-paint.ts';

const BSU = '\x1b[?2026h';

/**
 * Prefixes the next write on `stream` with `prefix`, once (inside a leading
 * synchronized-output begin, so a terminal that honours it shows the erase and
 * the new frame together). Returns a function that undoes the wrap and says
 * whether the prefix went out.
 */
function prefixNextWrite(stream: NodeJS.WriteStream, prefix: string): () => boolean {
  const own = Object.prototype.hasOwnProperty.call(stream, 'write');
  const original = stream.write;
  let sent = false;
  const restore = () => {
    if (own) stream.write = original;
    else delete (stream as { write?: unknown }).write;
  };
  stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    restore();
    sent = true;
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    const joined = text.startsWith(BSU) ? BSU + prefix + text.slice(BSU.length) : prefix + text;
    return (original as (c: string, ...r: unknown[]) => boolean).call(stream, joined, ...rest);
  } as typeof stream.write;
  return () => {
    if (!sent) restore();
    return sent;
  };
}

export function mountApp(app: AppModel, onError: (e: Error) => void, paint?: FirstPaint): Instance {
  const stdout = process.stdout;
  const done = paint ? prefixNextWrite(stdout, takeover()) : undefined;
  try {
    // interactive: true — moat only gets here with a terminal on stdin and stdout (interactive.ts checks).
    // Ink would otherwise treat any CI=true environment as non-interactive and draw nothing until exit.
    // Ink draws the first frame synchronously inside render().
    return render(<App app={app} onError={onError} />, {
      stdout,
      exitOnCtrlC: false,
      maxFps: 30,
      incrementalRendering: true,
      interactive: true,
    });
  } finally {
    // Ink wrote nothing (it always draws a first frame; this is the safe side): the pre-paint is erased
    // all the same, so Ink's next frame cannot land below a copy of it.
    if (done && !done()) stdout.write(takeover());
  }
}
