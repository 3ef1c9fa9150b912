/**
 * Arguments for the bundled tools that argv cannot carry: text with U+0000
 * (cut at the NUL) or longer than the argument buffer (a trap in the guest's
 * allocator past ~59 KB). They go on stdin as `<byte length>\n<UTF-8 bytes>`
 * frames and argv holds `\u0001moat-stdin:N` (tools/moat-tool/src/stdin_args.rs).
 */
const MARKER = '\u0001moat-stdin:';
/** Arguments longer than this (UTF-16 units) travel on stdin. */
export const MAX_ARGV_ARG = 4096;

export interface StdinArgs {
  argv: string[];
  stdin?: Uint8Array;
}

export function moveArgsToStdin(argv: readonly string[], max = MAX_ARGV_ARG): StdinArgs {
  const encoder = new TextEncoder();
  const frames: Uint8Array[] = [];
  const out = argv.map((a) => {
    if (a.length <= max && !a.includes('\0') && !a.startsWith('\u0001')) return a;
    // TextEncoder writes a lone surrogate as U+FFFD, as argv would.
    const bytes = encoder.encode(a);
    frames.push(encoder.encode(`${bytes.length}\n`), bytes);
    return `${MARKER}${frames.length / 2 - 1}`;
  });
  if (frames.length === 0) return { argv: out };
  const stdin = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of frames) {
    stdin.set(f, at);
    at += f.length;
  }
  return { argv: out, stdin };
}
