/** The shapes of skills, custom commands and agent definitions as loaded from their files. */
import type { AgentPermissionMode } from '../contracts/index.ts';

/** Where a definition came from; later sources override earlier ones of the same name. */
export type DefinitionSource = 'bundled' | 'user' | 'project';

/** One declared argument of a skill (frontmatter `args`). */
export interface SkillArg {
  name: string;
  description?: string;
  required: boolean;
}

export interface Skill {
  name: string;
  description: string;
  /** When the model should reach for it; shown beside the description. */
  whenToUse?: string;
  /**
   * Tools the skill expects to need, as written (`Read`, `Bash(git diff:*)`).
   * Advisory: the model is told about them; permissions are not changed.
   */
  allowedTools?: string[];
  args: SkillArg[];
  /** Claude Code's free-form hint, e.g. `[file] [focus]`. */
  argumentHint?: string;
  /** A custom command's `model`: the run it starts uses this model (an id or an alias such as `haiku`). */
  model?: string;
  /** The prompt template (after the frontmatter). */
  body: string;
  source: DefinitionSource;
  /** The SKILL.md file; for bundled skills a virtual `<bundled>/…` path. */
  file: string;
  /** The skill's folder, whose other files the model may read; absent for bundled skills (they have none). */
  dir?: string;
  /** A custom command in a sub-folder of `commands/`: the folders, `:`-joined (`frontend` for `frontend/test.md`), so `/frontend:test` reaches it too. */
  namespace?: string;
}

export type IsolationMode = 'none' | 'worktree';

export interface AgentDefinition {
  name: string;
  /** When to use it: listed to the model. */
  description: string;
  /** Tool names as written; undefined means every tool the parent has. */
  tools?: string[];
  /** Tools removed from whatever `tools` grants. */
  disallowedTools?: string[];
  /** A model id or alias (`sonnet`, `haiku`, `inherit`); undefined inherits the parent's. */
  model?: string;
  maxTurns?: number;
  permissionMode?: AgentPermissionMode;
  isolation?: IsolationMode;
  /** The sub-agent's system prompt. */
  systemPrompt: string;
  source: DefinitionSource;
  file: string;
}

/**
 * A problem with one skill or agent file. `skipped` definitions are not
 * loaded; the others loaded with the field ignored.
 */
export interface DefinitionIssue {
  file: string;
  /** The frontmatter field at fault, when one is. */
  field?: string;
  message: string;
  skipped: boolean;
}

export interface Loaded<T> {
  items: T[];
  issues: DefinitionIssue[];
}

export function formatIssue(issue: DefinitionIssue): string {
  const where = issue.field ? `${issue.file}: ${issue.field}` : issue.file;
  return `${where}: ${issue.message}${issue.skipped ? ' (skipped)' : ''}`;
}
