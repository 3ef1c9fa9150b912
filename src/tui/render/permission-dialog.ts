/**
 * The approval dialog: exactly what the call will do (the command, the diff
 * of an edit, the paths outside the project), then the four answers.
 */
import type { DialogState } from '../state/ui-state.ts';
import type { PermissionRequest, ToolCallView } from '../state/types.ts';
import { renderDiff, snippetPatch } from './diff.ts';
import { c, GLYPH } from './theme.ts';
import { displayName, relativePath } from './tool-args.ts';
import { truncate, wrapHard, wrapText } from './wrap.ts';
import { isRecord } from '../../util/index.ts';

const TITLES: Record<string, string> = {
  Bash: 'Run a command',
  Edit: 'Change a file',
  Read: 'Read outside the project',
  WebFetch: 'Fetch a web page',
};

/** What will happen, as lines; `room` caps long previews (the dialog must fit on screen). */
function whatHappens(req: PermissionRequest, call: ToolCallView | undefined, width: number, room: number, cwd: string): string[] {
  const k = c();
  const intent = req.intent;
  const lines: string[] = [];
  const input = isRecord(call?.input) ? call.input : {};
  if (intent.ruleName === 'Bash' && intent.subject) {
    const cmd = intent.subject.split('\n').flatMap((l) => wrapHard(l, width - 4));
    lines.push(...cmd.slice(0, Math.max(3, Math.floor(room / 2))).map((l) => `  ${k.bold(l)}`));
    if (cmd.length > Math.max(3, Math.floor(room / 2))) lines.push(k.dim(`  ${GLYPH.ellipsis} ${cmd.length - Math.floor(room / 2)} more lines`));
    if (typeof input.description === 'string') lines.push(k.dim(`  ${input.description}`));
    // The grant approving adds: the user approves the sandbox around the command as much as the command.
    if (req.grant) {
      const grant = wrapText(`Runs ${req.grant.text}`, width - 2, '  ', '  ');
      lines.push(...grant.map((l) => (req.grant?.level === 'off' ? k.red.bold(l) : k.yellow(l))));
    }
  } else {
    lines.push(...wrapText(intent.summary, width - 2, '  ', '  '));
  }
  const preview = intent.preview;
  const budget = Math.max(4, room - lines.length);
  if (preview?.type === 'diff') {
    lines.push(...renderDiff(preview.patch, width - 2, budget).map((l) => `  ${l}`));
  } else if (preview?.type === 'text') {
    lines.push(...preview.text.split('\n').slice(0, budget).map((l) => `  ${truncate(l, width - 2)}`));
  } else if (typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    lines.push(...renderDiff(snippetPatch(input.old_string, input.new_string), width - 2, budget).map((l) => `  ${l}`));
  } else if (typeof input.content === 'string' && req.toolName === 'Write') {
    lines.push(...renderDiff(snippetPatch('', input.content), width - 2, budget).map((l) => `  ${l}`));
  }
  const outside = intent.paths.filter((p) => !p.path.startsWith(`${cwd}/`) && p.path !== cwd);
  if (outside.length > 0) {
    lines.push(k.yellow(`  Outside the project: ${outside.map((p) => `${p.path} (${p.access})`).join(', ')}`));
  }
  return lines;
}

export function dialogLines(
  req: PermissionRequest,
  call: ToolCallView | undefined,
  state: DialogState,
  width: number,
  maxRows: number,
  cwd: string,
): string[] {
  const k = c();
  const title = TITLES[req.intent.ruleName] ?? `Use ${displayName(req.toolName)}`;
  const subject = req.intent.subject && req.intent.ruleName !== 'Bash' ? ` ${relativePath(req.intent.subject, cwd)}` : '';
  const options = [
    'Yes',
    `Yes, and don't ask again for this in this project`,
    'No',
    state.message ? `No, and tell moat: ${state.message.value}${k.inverse(' ')}` : 'No, and tell moat what to do instead',
  ];
  const footer = k.dim(state.message ? 'Enter to send · Esc to go back' : `Enter to choose · 1-4 · Esc to deny`);
  const fixed = 2 + options.length + 2 + (req.agent ? 1 : 0); // title, blank, options, blank, footer
  const body = whatHappens(req, call, width, Math.max(4, maxRows - fixed), cwd);
  const rule = k.yellow('─'.repeat(width));
  return [
    rule,
    truncate(`${k.yellow.bold(title)}${subject}`, width),
    // A sub-agent's own call: say which one, its card above shows what it is working on.
    ...(req.agent ? [truncate(k.magenta(`Asked by sub-agent: ${req.agent}`), width)] : []),
    ...body,
    '',
    ...options.map((o, i) => truncate(`${i === state.index ? k.cyan('❯') : ' '} ${i + 1}. ${i === state.index ? k.cyan(o) : o}`, width)),
    footer,
  ];
}
