/** `moat [prompt]` and `moat -p`: flags and config read once, then the run's client: the TUI, print mode (print-command.ts), stream-json input. */
// First: the schemas the modules below build are built without zod's JIT (see zod-setup.ts).
import './zod-setup.ts';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { MoatError } from '../util/index.ts';
import type { RootOptions } from './program.ts';
import { checkModels, endpointNotice, modelRouter } from './model-setup.ts';
import { definitionRoots, loadSkillsReporting } from './skill-setup.ts';
import { flagSettingsConfig, settingsFlag, settingSources } from './settings-flag.ts';
import { outputSchemaFlag, settingsFrom } from './settings-from.ts';
import { sandboxNotice } from './os-sandbox-setup.ts';
import { err } from './write-out.ts';
import { ignoredFlagNotes } from './sdk-flags.ts';
import { precompileYoga } from './yoga-precompile.ts';
import { paintBeforeSession } from './tui-early-paint.ts';

function resolveCwd(dir: string | undefined): string {
  const cwd = resolve(dir ?? process.cwd());
  let ok = false;
  try {
    ok = statSync(cwd).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new MoatError('usage', `--cwd ${dir}: not a folder`);
  return cwd;
}

/** Two optional lists as one; undefined when both are. */
function joined(a: string[] | undefined, b: string[] | undefined): string[] | undefined {
  return a === undefined && b === undefined ? undefined : [...(a ?? []), ...(b ?? [])];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flag combinations that cannot work, each a one-line usage error. */
function checkFlags(opts: RootOptions): void {
  if (opts.continue && opts.resume) throw new MoatError('usage', '--continue and --resume cannot be used together');
  if (opts.sessionId !== undefined && !UUID.test(opts.sessionId)) throw new MoatError('usage', `--session-id must be a UUID, got "${opts.sessionId}"`);
  if (opts.forkSession && !opts.continue && !opts.resume) throw new MoatError('usage', '--fork-session goes with --resume or --continue');
  if (opts.sessionId !== undefined && (opts.continue || opts.resume) && !opts.forkSession) {
    throw new MoatError('usage', '--session-id names a new session: with --resume or --continue it needs --fork-session');
  }
  if (opts.permissionPromptTool !== undefined && opts.permissionPromptTool !== 'stdio') {
    throw new MoatError('usage', `--permission-prompt-tool ${opts.permissionPromptTool}: only "stdio" is supported (the program on stdin/stdout answers)`);
  }
  if (opts.permissionPromptTool === 'stdio' && opts.inputFormat !== 'stream-json') {
    throw new MoatError('usage', '--permission-prompt-tool stdio needs --input-format stream-json (the answers come on stdin)');
  }
  if (opts.includePartialMessages && opts.outputFormat !== 'stream-json') throw new MoatError('usage', '--include-partial-messages needs --output-format stream-json');
  if (opts.inputFormat === 'stream-json' && opts.outputFormat !== 'stream-json') throw new MoatError('usage', '--input-format stream-json needs --output-format stream-json');
}

/** `moat [prompt]` and `moat -p [prompt]`: the composition root of a run. */
export async function rootCommand(promptWords: string[], opts: RootOptions): Promise<number> {
  const env = process.env;
  const cwd = resolveCwd(opts.cwd);
  // SDK options moat has nothing behind: accepted, each said once (sdk-flags.ts).
  for (const note of ignoredFlagNotes(opts as unknown as Record<string, unknown>)) err(`moat: ${note}\n`);
  if (opts.permissionMode === 'auto') err("moat: --permission-mode auto runs as default: read-only commands run in the sandbox without asking, the rest asks\n");
  // Claude Code's --settings: its rules, model, mode and folders join the flags; its env reaches the tools.
  const flagSettings = settingsFlag(opts.settings, cwd);
  const sources = settingSources(opts.settingSources);
  for (const [k, v] of Object.entries(flagSettings.env ?? {})) env[k] = v;
  const loaded = loadConfig({
    cwd,
    env,
    ...(sources === undefined ? {} : { settingSources: sources }),
    flags: {
      model: opts.model ?? flagSettings.model,
      thinkingBudget: opts.maxThinkingTokens,
      fallback: opts.fallbackModel?.split(',').map((m) => m.trim()).filter((m) => m !== ''),
      maxTurns: opts.maxTurns,
      maxBudgetUsd: opts.maxBudgetUsd,
      permissionMode: opts.dangerouslySkipPermissions ? 'bypassPermissions' : opts.permissionMode === 'auto' ? 'default' : (opts.permissionMode ?? flagSettings.permissions?.defaultMode),
      addDirs: joined(opts.addDir, flagSettings.permissions?.additionalDirectories)?.map((d) => resolve(cwd, d)),
      allowedTools: joined(opts.allowedTools, flagSettings.permissions?.allow),
      disallowedTools: joined(opts.disallowedTools, flagSettings.permissions?.deny),
      ...flagSettingsConfig(flagSettings),
    },
  });
  // Any model: the router reaches each provider; a missing key is one line naming the variable to set.
  const router = modelRouter(loaded, env);
  // Settings files' env reaches moat and every process it starts (a project's only once trusted); flags' env wins.
  for (const [k, v] of Object.entries(loaded.env)) if (flagSettings.env?.[k] === undefined) env[k] = v;
  // The session's settings, computed once for whichever front end runs.
  const settings = settingsFrom(loaded, opts, cwd);
  // A schema zod cannot read is refused here, before anything runs.
  if (opts.jsonSchema !== undefined) settings.outputSchema = await outputSchemaFlag(opts.jsonSchema, '--json-schema');
  checkModels(router, settings);
  const notice = sandboxNotice(settings.processSandbox);
  if (notice !== undefined) err(`moat: ${notice}\n`);
  for (const line of loaded.untrusted) err(`moat: ${line} ignored until you trust this folder (moat trust)\n`);
  const endpoint = endpointNotice(loaded, router, settings.model, cwd, env);
  if (endpoint !== undefined) err(`moat: ${endpoint}\n`);
  // Read deny rules hide files, not their committed copies: said once, at start (git runs only when there are such rules).
  if (settings.deny.some((r) => r.type === 'path' && r.ruleName === 'Read')) {
    // Imported here: it brings the permission engine and the shell parser, which the TUI's first frame then does not
    // wait for (statically, the command line to rootCommand took ~3 ms more CPU in-process, 6 x 12-15 runs, load 4-6).
    const tracked = await (await import('./tracked-deny-notice.ts')).trackedDenyNotice(settings);
    if (tracked !== undefined) err(`moat: ${tracked}\n`);
  }
  if (opts.worktree && !opts.print) throw new MoatError('usage', '--worktree works with -p only: moat -p --worktree "task"');
  checkFlags(opts);
  // Programs and the Claude Agent SDK: JSON lines on stdin, one turn per user message (implies print mode).
  // Loaded only here: -p and the TUI never evaluate the stream-json client and its schemas (statically: -p's first byte +4-6 ms CPU, seam-paths.ts, 3 runs of 30-50, load 4-7).
  if (opts.inputFormat === 'stream-json') return (await import('./stream-json-command.ts')).streamJsonCommand({ loaded, opts, settings, router, env });
  if (!opts.print) {
    const prompt = promptWords.join(' ').trim();
    const resume = opts.continue ? 'latest' : opts.resume;
    const mcp = { configs: opts.mcpConfig ?? [], strict: opts.strictMcpConfig ?? false };
    // Skills as in -p: a bad SKILL.md is a warning line, printed before anything is drawn.
    const skills = loadSkillsReporting(definitionRoots(cwd, env, settings.settingSources));
    // The first frame, before the session is assembled: on screen while the rest loads.
    const early = await paintBeforeSession({ loaded, settings, router, mcp, prompt, resume });
    // yoga's WebAssembly compiles while the rest of the set-up runs; started after the first frame, since starting it
    // holds the main thread (2.7-8.4 ms in CPU profiles; ~7 ms more CPU before the first frame, in-process, load 4-6).
    precompileYoga();
    try {
      // The TUI's modules (and Ink, inside runInteractive) load only here, after the early frame (statically: that frame +7 ms wall, +3-7 ms CPU, seam-paths.ts, 20-50 runs, load 4-5).
      const { runInteractive } = await import('./interactive.ts');
      return await runInteractive({ loaded, settings, router, skills, prompt, resume, mcp, ...(early ? { early } : {}) });
    } catch (e) {
      // A set-up error before the UI took the frame over: it goes, and the error's line is all that shows.
      early?.abandon();
      throw e;
    }
  }

  // -p: its run's modules (the print client, the protocol's helpers) load here, after the TUI's branch above: statically,
  // the TUI's first frame waited for them (command line to rootCommand 13-14 ms in-process instead of 9-10; docs/start-up-seams.md).
  return (await import('./print-command.ts')).printCommand({ promptWords, opts, loaded, settings, router, env, cwd });
}
