/**
 * Everything the bottom of the screen shows besides the transcript: the
 * prompt, its completion menu, an open picker, the permission dialog's
 * selection, the Ctrl-C exit hint. One store, because one key router edits it.
 */

import type { PermissionMode } from '../../contracts/index.ts';
import type { TuiInfo } from '../views.ts';
import type { Completion } from './completion.ts';
import { EMPTY_EDITOR, type EditorState } from './line-editor.ts';

export interface PickerItem {
  label: string;
  detail?: string;
  value: string;
}

export interface Picker {
  title: string;
  items: PickerItem[];
  index: number;
  /** What choosing an item does (resume a session, switch model). */
  onSelect(value: string): void;
}

export interface DialogState {
  /** The highlighted option (0 = allow once, 1 = allow always, 2 = deny, 3 = deny with a message). */
  index: number;
  /** Set while typing the message for "deny with a message". */
  message?: EditorState;
}

export interface UiState {
  editor: EditorState;
  completion?: Completion;
  completionIndex: number;
  /** Position while browsing history with ↑/↓ (undefined = editing a new prompt). */
  historyIndex?: number;
  /** The unsent prompt, kept while browsing history. */
  draft?: string;
  picker?: Picker;
  dialog: DialogState;
  /** Date.now() until which a second Ctrl-C exits. */
  exitArmedUntil: number;
  info: TuiInfo;
  mode: PermissionMode;
  /** Files attached with @path since the last prompt (shown above the input). */
  files: readonly string[];
}

export function initialUi(info: TuiInfo): UiState {
  return {
    editor: EMPTY_EDITOR,
    completionIndex: 0,
    dialog: { index: 0 },
    exitArmedUntil: 0,
    info,
    mode: info.permissionMode,
    files: [],
  };
}
