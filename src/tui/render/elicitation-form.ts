/**
 * An MCP server's form, drawn in place of the prompt: which server asks, its
 * message, one line per field (label, value, and under it the focused field's
 * description and any field's error), and the keys. Everything the server
 * wrote is drawn without its control characters: a question must not move
 * the cursor or change the terminal.
 */
import type { ElicitationForm, FieldInput, FormField } from '../state/elicitation-form.ts';
import { c, GLYPH } from './theme.ts';
import { stringWidth, truncate, wrapText } from './wrap.ts';

const MAX_MESSAGE_ROWS = 6;
const MAX_LABEL_WIDTH = 32;
const FOOTER = 'Enter to submit · ↑/↓ to move · ←/→ or Space to choose · Esc to decline · Ctrl-C to cancel';

/** A server's text is cut here before it is laid out: a form shows a screenful, however much a server sends. */
const MAX_SERVER_TEXT = 4000;

/** Text a server (or a paste) supplied, with C0/C1 control characters (ESC among them) made spaces. */
export function plain(text: string): string {
  // The control characters are exactly what is removed (ESC would start a terminal sequence).
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** A server's text, cut and made plain. */
function said(text: string): string {
  return plain(text.slice(0, MAX_SERVER_TEXT));
}

/** A one-line text value with the cursor in inverse video, scrolled so the cursor stays in view. */
function textValue(value: string, cursor: number, width: number, focused: boolean, hint: string | undefined): string {
  const k = c();
  if (value === '') return `${focused ? k.inverse(' ') : ''}${hint ? k.dim(hint) : ''}`;
  const chars = [...plain(value)];
  const at = [...value.slice(0, cursor)].length;
  if (!focused) return truncate(chars.join(''), width);
  const start = Math.max(0, at - width + 2);
  const shown = chars.slice(start, start + width - 1);
  const i = at - start;
  return `${shown.slice(0, i).join('')}${k.inverse(shown[i] ?? ' ')}${shown.slice(i + 1).join('')}`;
}

function valueOf(field: FormField, focused: boolean, width: number): string {
  const k = c();
  const input: FieldInput = field.input;
  switch (input.kind) {
    case 'text':
    case 'number':
      return textValue(input.editor.value, input.editor.cursor, width, focused, field.hint);
    case 'boolean': {
      const text = input.value ? '[x] yes' : '[ ] no';
      return focused ? k.cyan(text) : text;
    }
    case 'choice': {
      const chosen = input.choices[input.index];
      const label = chosen === undefined ? k.dim(field.required ? 'choose with ←/→' : '(none)') : said(chosen.label);
      return focused ? `${k.cyan('‹')} ${chosen === undefined ? label : k.cyan(label)} ${k.cyan('›')}` : label;
    }
    case 'multi': {
      const parts = input.choices.map((choice, i) => {
        const text = `${input.chosen.includes(choice.value) ? '[x]' : '[ ]'} ${said(choice.label)}`;
        return focused && i === input.cursor ? k.cyan.inverse(text) : text;
      });
      const hint = parts.length === 0 || !field.hint ? '' : `  ${k.dim(field.hint)}`;
      // A narrow terminal: the options before the highlighted one give way so that it stays in view.
      let first = 0;
      while (focused && first < input.cursor && stringWidth(parts.slice(first, input.cursor + 1).join('  ')) > width - 2) first++;
      return `${first > 0 ? `${GLYPH.ellipsis} ` : ''}${parts.slice(first).join('  ')}${hint}`;
    }
  }
}

/** One field's lines: the field, then (focused) its description, then its error. */
function fieldLines(field: FormField, focused: boolean, labelWidth: number, width: number): string[] {
  const k = c();
  const label = truncate(`${said(field.label)}${field.required ? ' *' : ''}`, labelWidth);
  const pad = ' '.repeat(Math.max(0, labelWidth - stringWidth(label)));
  const valueWidth = Math.max(8, width - labelWidth - 4);
  const marker = focused ? k.cyan('❯') : ' ';
  const lines = [truncate(`${marker} ${focused ? k.bold(label) : label}${pad}  ${valueOf(field, focused, valueWidth)}`, width)];
  if (focused && field.description) lines.push(truncate(k.dim(`    ${said(field.description)}`), width));
  if (field.error) lines.push(truncate(k.red(`    ${GLYPH.error} ${plain(field.error)}`), width));
  return lines;
}

/** The fields' lines, scrolled so the focused field is in view when they do not all fit in `room`. */
function fieldsLines(form: ElicitationForm, width: number, room: number): string[] {
  const k = c();
  const widest = Math.max(0, ...form.fields.map((f) => stringWidth(said(f.label)) + (f.required ? 2 : 0)));
  const labelWidth = Math.min(MAX_LABEL_WIDTH, Math.max(4, Math.floor(width * 0.4)), widest);
  const blocks = form.fields.map((f, i) => fieldLines(f, i === form.focus, labelWidth, width));
  const total = blocks.reduce((n, b) => n + b.length, 0);
  if (total <= room) return blocks.flat();
  // Two rows go to the "more above / below" markers.
  let first = form.focus;
  let last = form.focus;
  let used = blocks[form.focus]?.length ?? 0;
  const fits = (i: number) => used + (blocks[i]?.length ?? 0) <= room - 2;
  while (true) {
    if (last + 1 < blocks.length && fits(last + 1)) used += blocks[++last]?.length ?? 0;
    else if (first > 0 && fits(first - 1)) used += blocks[--first]?.length ?? 0;
    else break;
  }
  return [
    first > 0 ? k.dim(`  ↑ ${first} more field${first === 1 ? '' : 's'}`) : '',
    ...blocks.slice(first, last + 1).flat(),
    last < blocks.length - 1 ? k.dim(`  ↓ ${blocks.length - 1 - last} more field${blocks.length - 1 - last === 1 ? '' : 's'}`) : '',
  ];
}

/** The form as lines at most `maxRows` high (the fields scroll; the header and the keys stay). */
export function elicitationLines(form: ElicitationForm, queued: number, width: number, maxRows: number): string[] {
  const k = c();
  const more = queued > 0 ? k.dim(` · ${queued} more waiting`) : '';
  const messageLines = form.message
    .slice(0, MAX_SERVER_TEXT)
    .split(/\r\n?|\n/)
    .flatMap((line) => wrapText(plain(line), width - 2, '  ', '  '));
  const shownMessage = messageLines.length > MAX_MESSAGE_ROWS ? [...messageLines.slice(0, MAX_MESSAGE_ROWS - 1), k.dim(`  ${GLYPH.ellipsis}`)] : messageLines;
  const header = [k.yellow('─'.repeat(width)), truncate(`${k.yellow.bold(`MCP server ${said(form.server)} asks`)}${more}`, width), ...shownMessage, ''];
  const footer = ['', truncate(k.dim(FOOTER), width)];
  const room = Math.max(3, maxRows - header.length - footer.length);
  const fields = form.fields.length === 0 ? [k.dim('  (nothing to fill in: Enter answers yes)')] : fieldsLines(form, width, room);
  return [...header, ...fields, ...footer];
}
