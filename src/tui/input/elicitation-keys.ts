/**
 * Keys while an MCP server's form is on screen (it owns the keyboard until
 * answered): ↑/↓ and Tab/Shift-Tab move between fields, text is typed and
 * edited as in the prompt, ←/→ and Space choose, Enter submits, Esc declines,
 * Ctrl-C cancels. Keys are looked up in the keymap, never compared raw.
 */
import type { Key } from 'ink';
import type { AppModel } from '../app-model.ts';
import { chordOf, matchAction, type KeyAction } from '../keymap.ts';
import { editText, focusTakesText, moveFocus, step, submit, toggle } from '../state/elicitation-form.ts';
import * as ed from '../state/line-editor.ts';

const FORM: readonly KeyAction[] = [
  'clearOrExit',
  'cancel',
  'submit',
  'menuUp',
  'menuDown',
  'complete',
  'cycleMode',
  'cursorLeft',
  'cursorRight',
  'wordLeft',
  'wordRight',
  'lineStart',
  'lineEnd',
  'deleteBack',
  'deleteForward',
  'deleteWordBack',
  'deleteToStart',
  'deleteToEnd',
];

/** Line-editor moves and deletions, by the action bound to them. */
const EDITS: Partial<Record<KeyAction, (st: ed.EditorState) => ed.EditorState>> = {
  cursorLeft: ed.left,
  cursorRight: ed.right,
  wordLeft: ed.wordLeft,
  wordRight: ed.wordRight,
  lineStart: ed.lineStart,
  lineEnd: ed.lineEnd,
  deleteBack: ed.deleteBack,
  deleteForward: ed.deleteForward,
  deleteWordBack: ed.deleteWordBack,
  deleteToStart: ed.deleteToStart,
  deleteToEnd: ed.deleteToEnd,
};

export function elicitationKey(app: AppModel, input: string, key: Key): void {
  const questions = app.elicitations;
  const form = questions.form();
  if (form === undefined) return;
  const chord = chordOf(input, key);
  const action = matchAction(app.keymap, chord, FORM);
  switch (action) {
    case 'clearOrExit':
      questions.answer({ action: 'cancel' });
      return;
    case 'cancel':
      questions.answer({ action: 'decline' });
      return;
    case 'submit': {
      const outcome = submit(form);
      if ('answer' in outcome) questions.answer(outcome.answer);
      else questions.update(() => outcome.form);
      return;
    }
    case 'menuUp':
    case 'cycleMode':
      questions.update((f) => moveFocus(f, -1));
      return;
    case 'menuDown':
    case 'complete':
      questions.update((f) => moveFocus(f, 1));
      return;
    case undefined:
      break;
    default: {
      if (!focusTakesText(form) && (action === 'cursorLeft' || action === 'cursorRight')) {
        questions.update((f) => step(f, action === 'cursorLeft' ? -1 : 1));
        return;
      }
      const edit = EDITS[action];
      if (edit) questions.update((f) => editText(f, edit));
      return;
    }
  }
  if (chord !== undefined || !input || key.ctrl || key.meta) return;
  if (focusTakesText(form)) questions.update((f) => editText(f, (st) => ed.insert(st, input.replace(/[\r\n]+/g, ' '))));
  else if (input === ' ') questions.update(toggle);
}

/** A paste goes into the focused text field, on one line. */
export function elicitationPaste(app: AppModel, text: string): void {
  app.elicitations.update((f) => editText(f, (st) => ed.insert(st, text.replace(/[\r\n]+/g, ' '))));
}
