/**
 * A session for a protocol client that is not a terminal (`moat acp`, `moat mcp serve`): assembled
 * through the one session assembly (open-session.ts), as every front end is.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { AgentSession } from '../agent/index.ts';
import type { PermissionMode } from '../contracts/index.ts';
import { addPermissionRule, approveRules, loadConfig, type Env, type LoadedConfig } from '../config/index.ts';
import type { WorktreeInfo } from '../print/index.ts';
import type { ModelRouter, Provider } from '../providers/index.ts';
import type { SessionHost } from '../protocol/index.ts';
import type { Skill } from '../skills/index.ts';
import type { AnyTool } from '../tools/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { checkModels, modelRouter } from './model-setup.ts';
import type { RootOptions } from './program.ts';
import { openSession, type SessionAssembly } from './open-session.ts';
import { settingsFrom } from './settings-from.ts';
import { definitionRoots, loadSkillsReporting } from './skill-setup.ts';
import { gitInfoOf } from './git-prefetch.ts';
import { finishWorktreeRun, startWorktreeRun } from './worktree-run.ts';

export interface ClientSessionOptions {
  cwd: string;
  env: Env;
  model?: string;
  permissionMode?: PermissionMode;
  /** Rules the caller adds for this session alone (`Read`, `Bash(git *)`…). */
  allowedTools?: readonly string[];
  disallowedTools?: readonly string[];
  maxTurns?: number;
  /** A saved session's id (or unique prefix) to go on with. */
  resume?: string;
  /** MCP servers the client hands over, each a `--mcp-config` JSON text. */
  mcpConfigs?: readonly string[];
  /** True: questions are asked (the client answers with `permission_answer`); false: what would be asked is denied. */
  interactive: boolean;
  /** Work in a fresh worktree on its own branch (as `-p --worktree`); the task's first line names it. */
  worktree?: { task: string };
  /** The built-in tools as this client runs them (an editor's file access); default: as they are. */
  builtins?: (tools: AnyTool[]) => AnyTool[];
  /** Requests go here instead of the configured models (`moat mcp serve --tools`: the caller is the model). */
  provider?: Provider;
  /** False: kept in memory only, not among the saved sessions. */
  persist?: boolean;
  warn(line: string): void;
}

export interface ClientSession {
  host: SessionHost;
  session: AgentSession;
  router: ModelRouter;
  skills: readonly Skill[];
  assembly: SessionAssembly;
  /** With `worktree`: commits the work on its branch (or removes the worktree when nothing changed). */
  finishWorktree?(stopped: boolean): Promise<WorktreeInfo>;
  /** "Reject always": a deny rule, from now on and in the project's config file (a restriction needs no trust). */
  denyAlways(rule: string): void;
  close(): Promise<void>;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Settings flags a client session uses from the root options (the rest stay at their defaults). */
const CLIENT_OPTIONS: RootOptions = { outputFormat: 'text', inputFormat: 'text', sessionPersistence: true, color: false };

function loadFor(o: ClientSessionOptions): LoadedConfig {
  return loadConfig({
    cwd: o.cwd,
    env: o.env,
    flags: {
      model: o.model,
      maxTurns: o.maxTurns,
      permissionMode: o.permissionMode,
      allowedTools: o.allowedTools === undefined ? undefined : [...o.allowedTools],
      disallowedTools: o.disallowedTools === undefined ? undefined : [...o.disallowedTools],
    },
  });
}

/**
 * Opens (or resumes) one session in `o.cwd`. An "allow always" answer is kept
 * where the TUI keeps it: the project's `.moat/config.toml` (or the user's
 * config for `user`), recorded as approved so it holds before the folder is trusted.
 */
export async function openClientSession(o: ClientSessionOptions): Promise<ClientSession> {
  const cwd = resolve(o.cwd);
  if (!isFolder(cwd)) throw new MoatError('usage', `${o.cwd}: not a folder`);
  const loaded = loadFor({ ...o, cwd });
  const router = modelRouter(loaded, o.env);
  const settings = settingsFrom(loaded, CLIENT_OPTIONS, cwd);
  // A session whose provider is given (the MCP caller) asks no configured model: it needs no key.
  if (o.provider === undefined) checkModels(router, settings, o.warn);
  for (const line of loaded.untrusted) o.warn(`${line} ignored until you trust this folder (moat trust)`);
  const skills = loadSkillsReporting(definitionRoots(cwd, o.env));
  settings.skills = skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse }));
  const worktree = o.worktree === undefined ? undefined : await startWorktreeRun(cwd, o.worktree.task, settings);
  const configDir = dirname(loaded.files.user);
  const opened = await openSession(
    {
      loaded,
      settings,
      router,
      env: o.env,
      skills,
      mcp: { configs: o.mcpConfigs ?? [], strict: false },
      warn: o.warn,
      ...(o.builtins === undefined ? {} : { builtins: o.builtins }),
      ...(o.provider === undefined ? {} : { provider: o.provider }),
      ...(o.persist === undefined ? {} : { persist: o.persist }),
      ...(o.interactive
        ? {
            answers: {
              remember: (rule: string, scope: 'local' | 'project' | 'user') => {
                const project = scope !== 'user';
                try {
                  addPermissionRule(project ? loaded.files.project : loaded.files.user, 'allow', rule);
                  if (project) approveRules(loaded.projectRoot, [rule], configDir);
                } catch (e) {
                  o.warn(`the rule ${rule} holds for this session only: ${errorMessage(e)}`);
                }
              },
            },
          }
        : {}),
    },
    { ...(o.resume === undefined ? {} : { resume: o.resume }), git: gitInfoOf(settings.cwd) },
  );
  const { host, session, assembly } = opened;
  return {
    host,
    session,
    router,
    skills,
    assembly,
    ...(worktree ? { finishWorktree: (stopped: boolean) => finishWorktreeRun(worktree, stopped) } : {}),
    denyAlways: (rule) => {
      host.submit({ type: 'add_rule', behavior: 'deny', rule });
      try {
        addPermissionRule(loaded.files.project, 'deny', rule);
      } catch (e) {
        o.warn(`the deny rule ${rule} holds for this session only: ${errorMessage(e)}`);
      }
    },
    close: async () => {
      host.cancelQuestions();
      for (const f of await opened.close('other')) o.warn(`a SessionEnd hook failed (ignored): ${f}`);
    },
  };
}
