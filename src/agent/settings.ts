/** Everything a session needs to know, resolved by the CLI from config and flags. */
import type { PermissionMode, SandboxPolicy } from '../contracts/index.ts';
import type { Rule, ToolRunPolicy } from '../tools/index.ts';

import type { z } from 'zod';
import type { InstructionSource } from './memory-files.ts';
import type { PromptAgent, PromptSkill } from './system-prompt.ts';

/** `--json-schema`: the user's JSON Schema, sent to the model as given, and zod's reading of it, which checks the answer (output-validator.ts). */
export interface OutputSchema {
  schema: Record<string, unknown>;
  validator: z.ZodType;
}

/** Everything a session needs to know, resolved by the CLI from config and flags. */
export interface AgentSettings {
  model: string;
  /** Models to move to, in order, when the current one keeps failing after its retries (`provider/model`). */
  fallbackModels?: string[];
  /** Cap on model requests per run; undefined = no cap. */
  maxTurns?: number;
  /** Stop before the next request once this run has cost this much. */
  maxBudgetUsd?: number;
  maxTokens: number;
  thinkingBudget?: number;
  permissionMode: PermissionMode;
  allow: Rule[];
  deny: Rule[];
  /** Ask rules (`permissions.ask` in settings): always asked, unless denied. */
  ask?: Rule[];
  /** The working folder (absolute). */
  cwd: string;
  /** Extra folders file tools may touch (absolute). */
  addDirs: string[];
  projectRoot: string;
  home: string;
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /**
   * `--setting-sources` (the Agent SDK's `settingSources`): the instruction
   * files, skills, commands and agents of only these sources are read; absent: all.
   */
  settingSources?: readonly InstructionSource[];
  idleTimeoutMs: number;
  bashTimeoutMs: number;
  /** `[tools.<name>] timeout` and `retry`, by tool name. */
  toolRuns?: Record<string, ToolRunPolicy>;
  /**
   * The user trusts this folder (`moat trust`): git's status goes into the
   * system prompt, read in a read-only sandbox (otherwise only `.git/HEAD` is
   * read), and the project's own commands' and skills' `allowed-tools` apply.
   */
  trustedFolder?: boolean;
  /** The OS sandbox around bash (and hooks); absent: none configured, commands ask as before. */
  processSandbox?: SandboxPolicy;
  /** Base of the exponential retry backoff (1 s in production). */
  retryBaseMs: number;
  /** Skills listed in the system prompt (the `skill` tool in the registry runs them). */
  skills?: PromptSkill[];
  /** Agent definitions listed in the system prompt (for the `task` tool). */
  agents?: PromptAgent[];
  /** `--tools`: only these tools are offered (names, any case); undefined offers every tool. */
  onlyTools?: string[];
  /** `--json-schema`: the final answer must be JSON valid against this schema (given through StructuredOutput). */
  outputSchema?: OutputSchema;
  /** Where hooks' `transcript_path` files go (Claude Code's JSONL, one per session); absent: hooks get an empty path. */
  transcriptDir?: string;
}

/** What a folder's configuration grants, replaced in an open session when the user trusts the folder. */
export type ReloadableSettings = Pick<AgentSettings, 'allow' | 'deny' | 'ask' | 'addDirs' | 'processSandbox' | 'trustedFolder'>;

/** `max_tokens` stops get an automatic "continue" at most this many times per run. */
export const MAX_CONTINUATIONS = 3;

export const CONTINUE_PROMPT =
  'Your previous response was cut off because it reached the output token limit. Continue exactly where you left off, without repeating anything.';

/** A trusted folder's configuration read again: its rules, extra folders and OS sandbox policy replace the old ones in `s`. */
export function applyReloadable(s: AgentSettings, next: ReloadableSettings): void {
  s.allow = [...next.allow];
  s.deny = [...next.deny];
  if (next.ask === undefined || next.ask.length === 0) delete s.ask;
  else s.ask = [...next.ask];
  s.addDirs = [...next.addDirs];
  if (next.processSandbox === undefined) delete s.processSandbox;
  else s.processSandbox = next.processSandbox;
  if (next.trustedFolder === true) s.trustedFolder = true;
  else delete s.trustedFolder;
}
