/**
 * The interactive UI's client of the SessionHost: one host serves its
 * sessions (swapped by the `new_session` and `resume` operations) and owns the
 * permission broker; every state change the UI asks for is one of the host's
 * operations, what it reads comes from one read-only queries object, and the
 * process's lifecycle (exit, the log, MCP servers' questions) is the third part.
 */
import { readFileSync, statSync, appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { type AgentSession, type AgentSettings, type Message, type RememberRule, type UserPart } from '../agent/index.ts';
import { addPermissionRule, approveRules, removePermissionRule, trustProject, type LoadedConfig } from '../config/index.ts';
import type { ModelRouter } from '../providers/index.ts';
import type { OwnerControls } from '../protocol/index.ts';
import { skillUsage, type Skill } from '../skills/index.ts';
import { walkFiles } from '../tools/index.ts';
import type { PromptInput, SessionPort, SessionQueries, SkillInfo, TuiClient, TuiInfo, TuiLifecycle } from '../tui/index.ts';
import { subagentControls } from './tui-subagents.ts';
import { tuiInfo } from './tui-info.ts';
import { mcpControls } from './mcp-controls.ts';
import type { SessionAssembly, SessionKeeper } from './open-session.ts';
import { grantsFrom } from './settings-from.ts';
import { CLAUDE_MODELS, modelChoices } from './model-choices.ts';
import { skillExpansion } from './skill-expansion.ts';
import { recordChangeWith } from './checkpoint-setup.ts';
import { userShell } from './user-shell.ts';
import { errorMessage, gitHead, SAFE_GIT_FLAGS } from '../util/index.ts';

export interface TuiClientDeps {
  /** Where every session of this UI is opened (store, tools, MCP, sub-agents, hooks, provider). */
  assembly: SessionAssembly;
  /** Model names, prices and context windows across providers (for /model and the status line). */
  router?: ModelRouter;
  /** The settings the assembly opens sessions with: what the next session starts with. */
  settings: AgentSettings;
  loaded: LoadedConfig;
  /** Where `log()` writes (details that must not reach the screen). */
  logFile: string;
  resume?: string;
  /** Skills (SKILL.md) the user can run as `/name args`; the model sees them through `settings.skills` and the skill tool. */
  skills?: readonly Skill[];
  /** Tools still registering (the WebAssembly tools attach after the first frame): a run waits for them. */
  toolsReady?: Promise<unknown>;
  /** Where MCP servers' questions reach the UI's form (the assembly was given its other end); none: they are cancelled. */
  elicitation?: Pick<TuiLifecycle, 'onElicitation'>;
}

/** The interactive run's client: the UI's three parts, plus opening the session ahead of first use. */
export interface StartedTuiClient extends TuiClient {
  /** Opens the session now (its store row, SessionStart, git's status) if nothing has yet. */
  openSession(): void;
  /** A line for the transcript (e.g. a warning that came after the UI took the terminal). */
  notice(level: 'info' | 'warning', text: string): void;
  /** Keeps an "always" answer (the assembly's `answers.remember`). */
  remember: RememberRule;
}

/** How long exiting waits for sub-agents to wind down (commit their worktrees) before closing anyway. */
const SUBAGENT_SHUTDOWN_MS = 10_000;

const MAX_ATTACHMENT_BYTES = 256 * 1024;

export function createTuiClient(deps: TuiClientDeps): StartedTuiClient {
  // `settings` holds what the next session starts with from the configuration (the host adds the model and
  // the mode set since); the open session keeps its own copy, changed through the host's operations.
  const { assembly, settings } = deps;
  const { store } = assembly;
  // Read again when the user trusts the folder (its grants apply at once).
  let loaded = deps.loaded;
  // Where the trust record lives: the config folder the configuration itself was read from.
  const configDir = dirname(loaded.files.user);
  const skills = deps.skills ?? [];
  let trustedNow = false;

  const log = (message: string) => {
    try {
      mkdirSync(join(deps.logFile, '..'), { recursive: true });
      appendFileSync(deps.logFile, `${new Date().toISOString()} ${message}\n`);
    } catch {
      // Logging must never take the UI down.
    }
  };

  /**
   * The rules live in one place, the settings files: a rule the user adds or an "always" answer is written
   * there and the configuration read again, so the listing and the sessions opened later (`settings`) follow
   * the files. The open session changes its own copy through the host's `add_rule` / `remove_rule`.
   */
  const reread = () => {
    const next = loaded.reload?.();
    if (next === undefined) return;
    loaded = next;
    const grants = grantsFrom(next, settings.home);
    settings.allow = grants.allow;
    settings.deny = grants.deny;
    if (grants.ask === undefined) delete settings.ask;
    else settings.ask = grants.ask;
    return grants;
  };
  const keep = (behavior: 'allow' | 'deny', rule: string, scope: 'project' | 'user') => {
    addPermissionRule(scope === 'project' ? loaded.files.project : loaded.files.user, behavior, rule);
    // The user's own rule: it holds from the project's file even before the folder is trusted.
    if (scope === 'project' && behavior === 'allow') approveRules(loaded.projectRoot, [rule], configDir);
    reread();
  };

  /**
   * The folder was just trusted: the config is read again and what it grants
   * (rules, extra folders, the OS sandbox policy, hooks, env) applies to the
   * open session at once and to later ones, not from the next start.
   */
  const applyTrustedConfig = () => {
    const grants = reread();
    if (grants === undefined) return undefined;
    // Newly granted variables join the environment; what was already set (the user's own, flags) stays.
    for (const [k, v] of Object.entries(loaded.env)) if (process.env[k] === undefined) process.env[k] = v;
    settings.addDirs = grants.addDirs;
    // MCP servers hear of the new folders too (roots/list_changed); setRoots never throws.
    void assembly.mcp.setRoots([settings.cwd, ...grants.addDirs]);
    if (grants.processSandbox !== undefined) settings.processSandbox = grants.processSandbox;
    // Sessions opened from now on read git's status and honour the project's commands' allowed-tools.
    if (grants.trustedFolder === true) settings.trustedFolder = true;
    // The host applies it to the open session (the `trust_project` operation).
    return { settings: grants, hooks: assembly.reconfigure(loaded) };
  };

  // What the host's operations beyond the session reach: the prompt history, MCP servers, sub-agents, worktrees, the shell.
  const recordChange = recordChangeWith(assembly.checkpoints, log);
  const agents = subagentControls(assembly.subagents, settings.cwd, log, recordChange);
  const mcp = mcpControls(assembly.mcp, loaded);
  const controls: OwnerControls<AgentSession> = {
    shell: userShell(recordChange),
    expandSkill: skillExpansion(skills, deps.router, recordChange),
    addPromptHistory: (text) => store.history.add(loaded.projectRoot, text),
    ...mcp.controls,
    ...agents.controls,
  };
  const keeper: SessionKeeper = {
    keepRule: keep,
    forgetRule: (behavior, rule) => {
      // Both files: a rule is where the user (or "don't ask again") put it. Comments and layout survive.
      removePermissionRule(loaded.files.project, behavior, rule);
      removePermissionRule(loaded.files.user, behavior, rule);
      reread();
    },
    trust: () => {
      trustProject(loaded.projectRoot, configDir);
      trustedNow = true;
      return applyTrustedConfig();
    },
    // A name no provider takes: `set_model` throws it to the UI, which reports it.
    checkModel: (model) => void deps.router?.resolve(model),
    controls,
  };
  // The UI drives the session through the session protocol, like -p and stream-json input do: one host
  // for the life of the UI, its broker answering every session it served (a background sub-agent of a
  // session left by /clear may still ask). A new session opens on first use, not before the first frame:
  // its store row and git's status are not on screen (interactive.ts opens it once that frame is drawn).
  // A resumed one opens now: the first frame shows its conversation and its settings.
  let opened = deps.resume ? assembly.open({ resume: deps.resume }, keeper).host : undefined;
  const host = () => (opened ??= assembly.open({}, keeper).host);
  const current = () => host().agent;
  /** An "always" answer: kept in moat's config (the project's, approved for this folder, or the user's). */
  const remember: RememberRule = (rule, scope) => keep('allow', rule, scope === 'user' ? 'user' : 'project');
  // Read from .git/HEAD: spawning git before the first frame costs startup time.
  const branch = gitHead(settings.cwd)?.branch;

  // Settles once the tools registering in the background are in; a failure there is theirs to report.
  let toolsReady = deps.toolsReady?.then(
    () => undefined,
    () => undefined,
  );
  void toolsReady?.then(() => {
    toolsReady = undefined;
  });
  // The router's notices (images or tools left out for a model) go into the transcript, not under Ink on stderr.
  const noticeListeners = new Set<(level: 'info' | 'warning', text: string) => void>();
  if (deps.router) deps.router.onNotice = (text) => noticeListeners.forEach((l) => l('warning', text));
  /** The prompt as message parts; `@server:uri` resources are read first and go in before the text. */
  const partsOf = async (prompt: PromptInput, signal: AbortSignal): Promise<UserPart[]> => {
    const parts = promptParts(prompt, settings.cwd);
    const refs = prompt.resources ?? [];
    if (refs.length === 0) return parts;
    const texts = await mcp.resourceParts(refs, signal);
    return [...parts.slice(0, -1), ...texts.map((text): UserPart => ({ type: 'text', text })), ...parts.slice(-1)];
  };

  const session: SessionPort = {
    submit: (op) => host().submit(op),
    request: (op) => host().request(op),
    run: (prompt, signal) => {
      // A custom command's `model`: this run's alone, carried by its user message; the next run is on the session's again.
      const { model } = prompt;
      const h = host();
      if ((prompt.resources ?? []).length === 0 && toolsReady === undefined) return h.turn(promptParts(prompt, settings.cwd), signal, model);
      return (async function* () {
        if (toolsReady !== undefined) await toolsReady;
        yield* h.turn(await partsOf(prompt, signal), signal, model);
      })();
    },
    compact: (instructions, signal) => host().compact(instructions, signal),
    shell: (command, signal) => host().shell(command, signal),
    expandSkill: (name, args, signal) => host().expandSkill(name, args, signal),
  };

  const conversation = (): Message[] => [...current().messages()];
  const queries: SessionQueries = {
    info: (): TuiInfo => {
      // Until the session opens, what it will start with is `settings` (it takes a copy when it opens).
      const now = opened?.agent.currentSettings() ?? settings;
      return {
        ...tuiInfo(now, deps.router, branch),
        // Read when asked for (/clear, /resume): it opens the session, which the first frame does not need.
        get sessionId() {
          return current().id;
        },
      };
    },
    initialMessages: () => (opened?.agent.resumed === true ? conversation() : []),
    conversation,
    models: () => {
      const model = current().currentSettings().model;
      const all = deps.router === undefined ? CLAUDE_MODELS : modelChoices(deps.router);
      return all.includes(model) ? all : [model, ...all];
    },
    listSessions: () =>
      store.sessions
        .list({ cwd: settings.cwd })
        .map((s) => ({ id: s.id, title: s.title ?? s.firstPrompt ?? '', updatedAt: s.updatedAt, model: s.model })),
    rewindPoints: async () => (await assembly.checkpoints?.points?.(current().id)) ?? [],
    promptHistory: () => store.history.list(loaded.projectRoot, 500).reverse(),
    tools: () => assembly.registry.list().map((t) => ({ name: t.name, description: t.description, effect: t.effect })),
    skills: () => skills.map((s): SkillInfo => skillInfo(s)),
    untrustedGrants: () => (trustedNow ? [] : loaded.untrusted),
    ...mcp.queries,
    onNotice: (listener) => {
      noticeListeners.add(listener);
      return () => noticeListeners.delete(listener);
    },
    hooks: () =>
      Object.entries(loaded.hooks).flatMap(([event, groups]) =>
        (groups ?? []).flatMap((g) => g.hooks.map((h) => ({ event, ...(g.matcher === undefined ? {} : { matcher: g.matcher }), command: h.command, source: h.source, timeoutMs: h.timeoutMs }))),
      ),
    // One list: the settings files as last read (the open session's copy follows them through the rule operations).
    permissionRules: () => loaded.rules.map((r) => ({ rule: r.rule, behavior: r.list, source: r.source.kind === 'file' ? r.source.scope : r.source.kind })),
    listFiles: () => listProjectFiles(settings.cwd),
    cost: () => {
      const t = store.usage.totals(current().id);
      return { sessionCostUsd: t.costUsd, usage: t.usage, turns: t.turns };
    },
    ...agents.queries,
  };

  const lifecycle: TuiLifecycle = {
    onElicitation: (handler) => deps.elicitation?.onElicitation(handler) ?? (() => {}),
    shutdown: async () => {
      // Open questions first: a sub-agent waiting for an answer could not wind down.
      opened?.cancelQuestions('moat is exiting.');
      agents.close();
      // A session nothing opened has nothing to end.
      for (const f of (await opened?.agent.end('prompt_input_exit')) ?? []) log(`a SessionEnd hook failed: ${f}`);
      const stopping = assembly.stopAgents();
      {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            log('sub-agents did not stop in time; closing anyway (their worktrees show as interrupted)');
            resolve();
          }, SUBAGENT_SHUTDOWN_MS);
        });
        await Promise.race([stopping.catch((e: unknown) => log(`stopping sub-agents failed: ${errorMessage(e)}`)), late]);
        clearTimeout(timer);
      }
      await assembly.close();
    },
    log,
  };

  return {
    session,
    queries,
    lifecycle,
    remember,
    openSession: () => void host(),
    notice: (level, text) => noticeListeners.forEach((l) => l(level, text)),
  };
}

function skillInfo(s: Skill): SkillInfo {
  const args = skillUsage(s).slice(s.name.length + 2);
  return { name: s.name, description: s.description, ...(args ? { args } : {}) };
}

/** Shell context, then attached files, then the prompt text: what the model gets as one user message. */
export function promptParts(prompt: PromptInput, cwd: string): UserPart[] {
  const parts: UserPart[] = [];
  for (const r of prompt.shellContext) {
    parts.push({
      type: 'text',
      text: `<bash-input>${r.command}</bash-input>\n<bash-output exit-code="${r.exitCode ?? 'killed'}">\n${r.output}</bash-output>\nThe user ran this command in the terminal; its output is context for the next request.`,
    });
  }
  for (const rel of prompt.attachments) {
    const abs = resolve(cwd, rel);
    try {
      const size = statSync(abs).size;
      if (size > MAX_ATTACHMENT_BYTES) {
        parts.push({ type: 'text', text: `<file path="${rel}">(${size} bytes: too large to attach; read it with the Read tool)</file>` });
        continue;
      }
      const text = readFileSync(abs, 'utf8');
      parts.push({ type: 'text', text: `<file path="${relative(cwd, abs)}">\n${text}\n</file>` });
    } catch (e) {
      parts.push({ type: 'text', text: `<file path="${rel}">(could not read: ${errorMessage(e)})</file>` });
    }
  }
  parts.push({ type: 'text', text: prompt.text });
  return parts;
}

const MAX_FILES = 20_000;
const NEVER_LISTED: ReadonlySet<string> = new Set(['node_modules']);

/**
 * Files for `@path` completion: git's view when in a repository (fast,
 * .gitignore exact), else the Glob/Grep walk, where every nested .gitignore
 * applies to its own folder.
 */
export async function listProjectFiles(cwd: string): Promise<string[]> {
  // moat's git flags: the repository's fsmonitor (which ls-files may ask about untracked files) never runs.
  const git = Bun.spawn(['git', ...SAFE_GIT_FLAGS, 'ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd, stdin: 'ignore', stdout: 'pipe', stderr: 'ignore' });
  const out = await new Response(git.stdout).text();
  if ((await git.exited) === 0) return out.split('\0').filter(Boolean).slice(0, MAX_FILES);
  const files: string[] = [];
  for (const entry of walkFiles(cwd, { skipFolders: NEVER_LISTED })) {
    if (files.length >= MAX_FILES) break;
    files.push(entry.rel);
  }
  return files;
}

