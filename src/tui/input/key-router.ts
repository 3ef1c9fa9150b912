/**
 * Every key press goes through here, once: an MCP server's form first, then
 * the permission dialog (each owns the keyboard while open; a form opens only
 * while no dialog is up), then an open picker, then the prompt. Keys
 * are looked up in the keymap, never compared raw, so config can rebind them.
 */
import type { Key } from 'ink';
import type { AppModel } from '../app-model.ts';
import { chordOf, matchAction, type KeyAction } from '../keymap.ts';
import { applyCompletion } from '../state/completion.ts';
import { elicitationKey, elicitationPaste } from './elicitation-keys.ts';
import * as ed from '../state/line-editor.ts';

const GLOBAL: readonly KeyAction[] = ['clearOrExit'];
const DIALOG: readonly KeyAction[] = ['cancel', 'accept', 'menuUp', 'menuDown'];
const EDIT: readonly KeyAction[] = [
  'newline',
  'submit',
  'interrupt',
  'exit',
  'cycleMode',
  'expand',
  'complete',
  'cursorLeft',
  'cursorRight',
  'wordLeft',
  'wordRight',
  'lineStart',
  'lineEnd',
  'deleteWordBack',
  'deleteBack',
  'deleteForward',
  'deleteToStart',
  'deleteToEnd',
  'historyPrev',
  'historyNext',
];

export const DIALOG_OPTIONS = 4;

export function handleKey(app: AppModel, input: string, key: Key): void {
  if (app.elicitations.form() !== undefined) {
    elicitationKey(app, input, key);
    return;
  }
  const chord = chordOf(input, key);
  if (matchAction(app.keymap, chord, GLOBAL) === 'clearOrExit') {
    app.ctrlC();
    return;
  }
  if (app.transcript.permissions.get().length > 0) {
    dialogKey(app, input, key);
    return;
  }
  if (app.ui.get().picker) {
    pickerKey(app, input, key);
    return;
  }
  promptKey(app, input, key);
}

export function handlePaste(app: AppModel, text: string): void {
  if (app.elicitations.form() !== undefined) {
    elicitationPaste(app, text);
    return;
  }
  const u = app.ui.get();
  if (app.transcript.permissions.get().length > 0) {
    if (u.dialog.message) app.ui.set({ ...u, dialog: { ...u.dialog, message: ed.insert(u.dialog.message, text.replace(/\n/g, ' ')) } });
    return;
  }
  if (u.picker) return;
  app.setEditor(ed.insert(u.editor, text));
}

function dialogKey(app: AppModel, input: string, key: Key): void {
  const u = app.ui.get();
  const chord = chordOf(input, key);
  const message = u.dialog.message;
  if (message) {
    // Typing the message for "deny with a message".
    const action = matchAction(app.keymap, chord, ['cancel', 'submit', 'deleteBack', 'deleteWordBack', 'cursorLeft', 'cursorRight']);
    if (action === 'cancel') app.ui.set({ ...u, dialog: { index: 3 } });
    else if (action === 'submit') app.answerPermission({ behavior: 'deny', ...(message.value.trim() ? { message: message.value.trim() } : {}) });
    else if (action === 'deleteBack') app.ui.set({ ...u, dialog: { ...u.dialog, message: ed.deleteBack(message) } });
    else if (action === 'deleteWordBack') app.ui.set({ ...u, dialog: { ...u.dialog, message: ed.deleteWordBack(message) } });
    else if (action === 'cursorLeft') app.ui.set({ ...u, dialog: { ...u.dialog, message: ed.left(message) } });
    else if (action === 'cursorRight') app.ui.set({ ...u, dialog: { ...u.dialog, message: ed.right(message) } });
    else if (!chord && input) app.ui.set({ ...u, dialog: { ...u.dialog, message: ed.insert(message, input) } });
    return;
  }
  const digit = !chord && /^[1-4]$/.test(input) ? Number(input) - 1 : undefined;
  const action = matchAction(app.keymap, chord, DIALOG);
  if (action === 'cancel') {
    app.answerPermission({ behavior: 'deny' });
    return;
  }
  if (action === 'menuUp' || action === 'menuDown') {
    const step = action === 'menuUp' ? -1 : 1;
    app.ui.set({ ...u, dialog: { index: (u.dialog.index + step + DIALOG_OPTIONS) % DIALOG_OPTIONS } });
    return;
  }
  const choice = digit ?? (action === 'accept' && chord === app.keymap.accept.find((ch) => ch === chord) ? u.dialog.index : undefined);
  if (choice === undefined) return;
  switch (choice) {
    case 0:
      app.answerPermission({ behavior: 'allow' });
      return;
    case 1:
      app.answerPermission({ behavior: 'allow', remember: 'project' });
      return;
    case 2:
      app.answerPermission({ behavior: 'deny' });
      return;
    default:
      app.ui.set({ ...u, dialog: { index: 3, message: ed.EMPTY_EDITOR } });
  }
}

function pickerKey(app: AppModel, input: string, key: Key): void {
  const u = app.ui.get();
  const picker = u.picker;
  if (!picker) return;
  const action = matchAction(app.keymap, chordOf(input, key), ['cancel', 'accept', 'menuUp', 'menuDown']);
  if (action === 'cancel') app.closePicker(false);
  else if (action === 'accept') app.closePicker(true);
  else if (action === 'menuUp' || action === 'menuDown') {
    const n = picker.items.length;
    const index = (picker.index + (action === 'menuUp' ? -1 : 1) + n) % n;
    app.ui.set({ ...u, picker: { ...picker, index } });
  }
}

function promptKey(app: AppModel, input: string, key: Key): void {
  const u = app.ui.get();
  const st = u.editor;
  const chord = chordOf(input, key);
  const menu = u.completion;
  // While the completion menu is open, ↑/↓/Tab/Enter/Esc drive it.
  if (menu) {
    const action = matchAction(app.keymap, chord, ['menuUp', 'menuDown', 'accept', 'cancel']);
    if (action === 'menuUp' || action === 'menuDown') {
      const n = menu.options.length;
      app.ui.set({ ...u, completionIndex: (u.completionIndex + (action === 'menuUp' ? -1 : 1) + n) % n });
      return;
    }
    if (action === 'cancel') {
      app.ui.set({ ...u, completion: undefined });
      if (app.isBusy()) app.interrupt();
      return;
    }
    // Enter on a command menu runs the highlighted command; on a file menu it picks the file.
    if (action === 'accept') {
      const next = applyCompletion(st.value, menu, u.completionIndex);
      if (menu.kind === 'command' && matchAction(app.keymap, chord, ['submit'])) {
        app.setEditor({ value: next.value.trimEnd(), cursor: next.value.trimEnd().length });
        app.submit();
      } else {
        app.setEditor(next);
      }
      return;
    }
  }
  // Two Escapes read in one chunk reach us as one alt+escape: on an empty, idle prompt that is Esc Esc (/rewind).
  if (chord === 'alt+escape' && !st.value && !app.isBusy()) {
    app.escapeOnEmpty();
    app.escapeOnEmpty();
    return;
  }
  const action = matchAction(app.keymap, chord, EDIT);
  switch (action) {
    case 'newline':
      app.setEditor(ed.insert(st, '\n'));
      return;
    case 'submit': {
      // A trailing backslash continues the prompt on a new line, as in a shell.
      if (st.cursor === st.value.length && st.value.endsWith('\\')) {
        app.setEditor(ed.insert(ed.deleteBack(st), '\n'));
        return;
      }
      app.submit();
      return;
    }
    case 'interrupt':
      if (app.interrupt()) return;
      if (st.value) app.setEditor(ed.EMPTY_EDITOR);
      else app.escapeOnEmpty();
      return;
    case 'exit':
      if (!st.value) app.exit();
      else app.setEditor(ed.deleteForward(st));
      return;
    case 'cycleMode':
      app.cycleMode();
      return;
    case 'expand':
      app.expand();
      return;
    case 'complete':
      return;
    case 'cursorLeft':
      app.setEditor(ed.left(st));
      return;
    case 'cursorRight':
      app.setEditor(ed.right(st));
      return;
    case 'wordLeft':
      app.setEditor(ed.wordLeft(st));
      return;
    case 'wordRight':
      app.setEditor(ed.wordRight(st));
      return;
    case 'lineStart':
      app.setEditor(ed.lineStart(st));
      return;
    case 'lineEnd':
      app.setEditor(ed.lineEnd(st));
      return;
    case 'deleteBack':
      app.setEditor(ed.deleteBack(st));
      return;
    case 'deleteForward':
      app.setEditor(ed.deleteForward(st));
      return;
    case 'deleteWordBack':
      app.setEditor(ed.deleteWordBack(st));
      return;
    case 'deleteToStart':
      app.setEditor(ed.deleteToStart(st));
      return;
    case 'deleteToEnd':
      app.setEditor(ed.deleteToEnd(st));
      return;
    case 'historyPrev':
    case 'historyNext': {
      const dir = action === 'historyPrev' ? -1 : 1;
      const moved = ed.verticalMove(st, dir);
      if (moved) app.setEditor(moved, true);
      else app.browseHistory(dir);
      return;
    }
    // Menu and dialog keys mean nothing while editing; no key: plain text below.
    case 'accept':
    case 'cancel':
    case 'clearOrExit':
    case 'menuDown':
    case 'menuUp':
    case undefined:
      break;
  }
  // Plain text (a typed character, or several when keys arrive together).
  if (!chord && input && !key.ctrl && !key.meta) {
    app.setEditor(ed.insert(st, input));
    if (input.includes('@')) app.refreshFiles();
  }
}
