/** `/rewind` (and Esc Esc on an empty prompt): pick a user message, then what to put back to just before it — code, conversation or both. */
import type { RewindOutcome, RewindRequest } from '../../agent/index.ts';
import { errorMessage } from '../../util/index.ts';
import { c } from '../render/theme.ts';
import type { CommandContext } from './slash-commands.ts';

const WHAT = [
  { label: 'Code and conversation', value: 'both' },
  { label: 'Conversation only', value: 'conversation' },
  { label: 'Code only', value: 'code' },
] as const;

/** The transcript lines a finished rewind adds: the files, what was left alone, and the fork. */
function outcomeLines(o: RewindOutcome, index: number): string[] {
  const k = c();
  const lines: string[] = [];
  if (o.code) {
    lines.push(o.code.lines.length === 0 ? `The files are as they were before message ${index}.` : `Files put back to before message ${index}:`, ...o.code.lines.map((l) => `  ${l}`));
    lines.push(...o.code.leftOut.map((l) => k.dim(`  ${l}`)));
  }
  if (o.branch !== undefined) lines.push(k.bold(`── conversation rewound to before message ${index} · the old branch is session ${o.branch.slice(0, 8)} (moat sessions show ${o.branch}) ──`));
  return lines;
}

/** Runs the rewind; a refusal over files changed outside moat asks once more, and the second yes forces it. */
function perform(ctx: CommandContext, req: RewindRequest, index: number): void {
  ctx.background(
    ctx.session.request({ type: 'rewind', ...req }).then(
      (o) => ctx.print(outcomeLines(o, index)),
      (e: unknown) => {
        const message = errorMessage(e);
        if (req.force === true || !message.includes('--force')) return ctx.notice('error', message);
        ctx.notice('warning', message.replace(/; ask again with --force to overwrite (it|them)$/, ''));
        ctx.openPicker({
          title: 'Overwrite the files changed outside moat?',
          items: [
            { label: 'Yes, overwrite them', value: 'yes' },
            { label: 'No, leave everything as it is', value: 'no' },
          ],
          onSelect: (v) => {
            if (v === 'yes') perform(ctx, { ...req, force: true }, index);
          },
        });
      },
    ),
  );
}

export function rewindCommand(ctx: CommandContext): void {
  ctx.background(
    ctx.queries.rewindPoints().then((points) => {
      if (points.length === 0) return ctx.notice('info', 'Nothing to rewind yet: this session has no messages.');
      ctx.openPicker({
        title: 'Rewind to just before which message?',
        items: points.map((p) => ({ label: `${p.index}. ${p.text.replace(/\s+/g, ' ').slice(0, 60)}`, detail: p.summary, value: String(p.index) })),
        onSelect: (value) => {
          const point = points[Number(value) - 1];
          if (!point) return;
          ctx.openPicker({
            title: `Rewind to before message ${point.index}: what?`,
            items: WHAT.map((w) => ({ label: w.label, value: w.value })),
            onSelect: (what) => perform(ctx, { checkpointId: `turn-${point.turn}`, code: what !== 'conversation', conversation: what !== 'code' }, point.index),
          });
        },
      });
    }),
  );
}
