/**
 * The interactive UI's public surface. Importing this loads the UI's model and
 * renderers, not Ink and React (runTui loads those once it has drawn the first
 * frame); the CLI still imports it lazily (`await import`), so `--version` and
 * `-p` never pay for it.
 */
export { runTui, type RunTuiOptions } from './run-tui.ts';
export { stdioIsTerminal } from './terminal.ts';
export { paintEarly, type EarlyPaint } from './early-paint.ts';
export type { TuiClient, SessionPort, SessionQueries, TuiLifecycle, TuiOp } from './session-port.ts';
export type {
  TuiInfo,
  PromptInput,
  ShellResult,
  SessionSummary,
  PermissionRuleView,
  HookView,
  ToolInfo,
  CostInfo,
  SkillInfo,
  SubagentUpdate,
  AgentDefinitionInfo,
  WorktreeView,
  McpServerView,
  McpPromptView,
  ElicitationRequest,
  ElicitationAnswer,
  ElicitationHandler,
} from './views.ts';
export { KEY_ACTIONS, DEFAULT_KEYMAP, buildKeymap, normalizeChord, type Keymap, type KeyAction, type KeyChord, type KeymapOverrides } from './keymap.ts';
