/** `moat --input-format stream-json`: the composition root of a session driven by a program over stdin/stdout. */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import pkg from '../../package.json' with { type: 'json' };
import type { AgentSettings, RememberRule } from '../agent/index.ts';
import { addClaudeSettingsRules, approveRules, claudeSettingsPaths, homeOf, moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import { OutputMapper } from '../print/index.ts';
import { programElicitation, programMcpTransport } from '../sdk/index.ts';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ModelRouter } from '../providers/index.ts';
import { runStreamJsonClient, type OpenedSession as Client } from '../sdk/index.ts';
import { skillUsage, type Skill } from '../skills/index.ts';
import { errorMessage } from '../util/index.ts';
import { agentDefinitions, agentsFlag } from './agents-json.ts';
import { EXIT, exitCodeForStop } from './exit-codes.ts';
import type { RootOptions } from './program.ts';
import { outputSchemaFlag } from './settings-from.ts';
import { openSession } from './open-session.ts';
import { definitionRoots, loadSkillsReporting, promptWithSkill } from './skill-setup.ts';
import { initServers, sdkServerStatus } from './mcp-setup.ts';
import { runInlineCommands, sessionCheck } from './inline-commands.ts';
import { toSessionEvent } from '../protocol/index.ts';
import { modelInfos } from './model-choices.ts';
import { err, runStdout } from './write-out.ts';
import { gitInfoOf } from './git-prefetch.ts';

/** `argument-hint` as Claude Code lists it (`<file> [focus]`): the usage line without the command's name. */
function argumentHint(s: Skill): string {
  return skillUsage(s).slice(s.name.length + 2);
}

/**
 * An "always" answer kept where the program's `destination` said, in Claude
 * Code's files: `.claude/settings.local.json`, `.claude/settings.json` or
 * `~/.claude/settings.json`. The rule is the user's own answer, so it is
 * recorded as approved for the folder and holds before the folder is trusted.
 */
function rememberInClaudeSettings(loaded: LoadedConfig, env: Env): RememberRule {
  return (rule, scope) => {
    const paths = claudeSettingsPaths(homeOf(env), loaded.projectRoot);
    try {
      addClaudeSettingsRules(paths[scope], 'allow', [rule]);
      if (scope !== 'user') approveRules(loaded.projectRoot, [rule], moatPaths(env).configDir);
    } catch (e) {
      err(`moat: the rule ${rule} holds for this session only: ${errorMessage(e)}\n`);
    }
  };
}

async function* stdinLines(): AsyncIterable<string> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

export async function streamJsonCommand(o: { loaded: LoadedConfig; opts: RootOptions; settings: AgentSettings; router: ModelRouter; env: Env }): Promise<number> {
  const { loaded, opts, settings, env } = o;
  const skills = loadSkillsReporting(definitionRoots(settings.cwd, env, settings.settingSources));
  const flagAgents = agentsFlag(opts.agents);
  // --debug-file (the SDK adds it when DEBUG_CLAUDE_AGENT_SDK is set): the same lines, appended to that file.
  const debugFile = opts.debugFile;
  const debug = debugFile !== undefined ? (line: string) => appendFileSync(debugFile, `${line}\n`) : opts.debug ? (line: string) => err(`${line}\n`) : () => {};
  let current: Client | undefined;

  // Ctrl-C / SIGTERM: interrupt the turn; a second one exits (finished turns are saved).
  let signalled = false;
  const onSignal = () => {
    if (signalled || !current) process.exit(EXIT.interrupted);
    signalled = true;
    current.host.submit({ type: 'interrupt' });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A program that closes its end of stdout is gone: interrupt the turn, and end with 0 once it stops.
  const stdout = runStdout(() => current?.host.submit({ type: 'interrupt' }));

  try {
    const outcome = await runStreamJsonClient({
      lines: stdinLines(),
      write: stdout.write,
      debug,
      permissionPrompt: opts.permissionPromptTool === 'stdio',
      maxTokens: loaded.config.maxTokens,
      open: async (init, hooks, program) => {
        settings.skills = skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse }));
        if (init?.systemPrompt !== undefined) settings.systemPrompt = Array.isArray(init.systemPrompt) ? init.systemPrompt.join('\n\n') : init.systemPrompt;
        if (init?.appendSystemPrompt !== undefined) {
          settings.appendSystemPrompt = [settings.appendSystemPrompt, init.appendSystemPrompt].filter((s) => s !== undefined).join('\n\n');
        }
        if (init?.jsonSchema !== undefined) settings.outputSchema = await outputSchemaFlag(init.jsonSchema, 'initialize.jsonSchema');
        const initAgents = init?.agents === undefined ? [] : agentDefinitions(init.agents, 'initialize.agents');
        const programServers = init?.sdkMcpServers ?? [];
        const opened = await openSession(
          {
            loaded,
            settings,
            router: o.router,
            env,
            skills,
            tools: opts.tools,
            extraAgents: [...flagAgents, ...initAgents],
            persist: opts.sessionPersistence,
            // The program's in-process servers, reached through it; servers delivered in initialize join --mcp-config's, read the same way.
            ...(programServers.length === 0 ? {} : { programMcp: { names: programServers, transport: (name: string) => programMcpTransport(name, program) as Transport } }),
            // A server's elicitation goes to the program (its onElicitation; the SDK declines without one), as in Claude Code.
            elicit: programElicitation(program),
            mcp: { configs: [...(opts.mcpConfig ?? []), ...(init?.mcpServers === undefined ? [] : [JSON.stringify({ mcpServers: init.mcpServers })])], strict: opts.strictMcpConfig ?? false },
            warn: (line) => err(`moat: ${line}\n`),
            hookCallbacks: hooks,
            // --permission-prompt-tool stdio: the program answers permission questions.
            ...(opts.permissionPromptTool === 'stdio' ? { answers: { remember: rememberInClaudeSettings(loaded, env) } } : {}),
          },
          (assembly) => ({
            resume: opts.continue ? 'latest' : opts.resume,
            ...(opts.forkSession ? { fork: true } : {}),
            ...(opts.sessionId === undefined ? {} : { sessionId: opts.sessionId }),
            git: gitInfoOf(settings.cwd),
            // The program's in-process servers start now; a prompt's first request waits until each is connected or failed.
            ...(programServers.length === 0 ? {} : { ready: assembly.mcp.startNow(programServers) }),
          }),
        );
        const { assembly, session } = opened;
        const apiKeySource = assembly.apiKeySource(settings.model);
        const mapper = new OutputMapper(
          {
            apiKeySource,
            version: pkg.version,
            slashCommands: skills.map((s) => s.name),
            skills: skills.map((s) => s.name),
            agents: assembly.agentNames,
            // Read when the init line is written, after the program's own servers connected.
            get mcpServers() {
              return initServers(assembly.mcp.status());
            },
          },
          { includePartialMessages: opts.includePartialMessages ?? false, replayUserMessages: opts.replayUserMessages ?? false },
        );
        const catalog = assembly.subagents.catalog?.list() ?? [];
        current = {
          host: opened.host,
          expand: async (text, onEvent) => {
            const invoked = promptWithSkill(text, skills);
            if (invoked.skill === undefined) return invoked.prompt;
            const { prompt, skill } = invoked;
            const signal = new AbortController().signal;
            // Decided as the model's Bash call: a question goes to the SDK program as its can_use_tool request.
            const check = sessionCheck(session, signal, (e) => onEvent(toSessionEvent(e)));
            const run = () => runInlineCommands(prompt, skill, session.currentSettings(), signal, check);
            // Its !`cmd` lines may write: checkpointed with the message they go into.
            return assembly.checkpoints?.around ? assembly.checkpoints.around(session.id, run, () => undefined) : run();
          },
          mapper,
          describe: () => ({
            commands: skills.map((s) => ({ name: s.name, description: s.description, argumentHint: argumentHint(s) })),
            agents: catalog.map((d) => ({ name: d.name, description: d.description, ...(d.model === undefined ? {} : { model: d.model }) })),
            output_style: 'default',
            // The SDK ends a session whose initialize servers were not confirmed as taken.
            ...(init?.mcpServers === undefined ? {} : { mcp_servers_applied: true }),
            available_output_styles: ['default'],
            models: modelInfos(o.router),
            account: { apiKeySource },
            pid: process.pid,
            current_permission_mode: session.currentSettings().permissionMode,
          }),
          mcpStatus: () => sdkServerStatus(assembly.mcp.status()),
          close: async () => {
            for (const f of await opened.close('other')) err(`moat: a SessionEnd hook failed (ignored): ${f}\n`);
          },
        };
        return current;
      },
    });
    if (stdout.closed) return EXIT.ok;
    if (outcome.badInput !== undefined) {
      err(`moat: stream-json input: ${outcome.badInput}\n`);
      return EXIT.usage;
    }
    // An interrupt is an ordinary request in this mode: the program asked for it.
    if (!outcome.last || outcome.last.stopReason === 'aborted') return EXIT.ok;
    return exitCodeForStop(outcome.last.stopReason);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
