/** The config layer's public surface: loading, paths, trust, hooks and schema types. */
export { loadConfig, displayPath, describeSource } from './load-config.ts';
export { addPermissionRule, removePermissionRule } from './permission-rules.ts';
export { parseConfigText, readConfigFile, type ConfigFile } from './config-file.ts';
export { moatPaths, sessionResultsDir, expandHome, type MoatPaths, type Env } from './paths.ts';
export { findProjectRoot, projectConfigFile } from './project-root.ts';
export { Secret } from './secret.ts';
export {
  DEFAULT_MODEL,
  DEFAULT_MAX_TOKENS,
  DEFAULT_STREAM_IDLE_TIMEOUT_S,
  DEFAULT_BASH_TIMEOUT_S,
  MIN_THINKING_BUDGET,
  type FileConfig,
} from './schema.ts';
export type * from './types.ts';
export { mergeCheckpoints, DEFAULT_CHECKPOINTS, type CheckpointsConfig } from './checkpoints-config.ts';
export { mergeOsSandbox } from './os-sandbox.ts';
export { mergeToolLimits, DEFAULT_SANDBOX_CEILING, type ToolLimitsConfig, type ToolLimitOverride, type SandboxCeiling } from './tool-limits.ts';
export { KEYMAP_ACTIONS, normalizeKeySpec, type KeymapAction, type KeymapConfig } from './keymap.ts';
export {
  projectTrust,
  folderTrusted,
  trustProject,
  untrustProject,
  approveMcpServers,
  approveRules,
  trustFilePath,
  TrustFileError,
  type ProjectTrust,
} from './project-trust.ts';
export { lineOfPath, type TomlOutline } from '../util/index.ts';
export { homeOf } from './paths.ts';
export { HOOK_EVENTS, hooksShape, countHooks, type HookEvent, type HooksConfig, type CommandHook } from './hooks-config.ts';
export { claudeSettingsPaths, readClaudeSettings, settingsIssue, SETTING_SOURCES, type SettingSource } from './claude-settings.ts';
export { claudeRecord, type ClaudeRecord } from './claude-record.ts';
export { addClaudeSettingsRules } from './claude-settings-rules.ts';
