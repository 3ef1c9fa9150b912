/**
 * The slash commands. Each one only sends session operations, reads the
 * queries and prints into the transcript; none of them reaches into the agent.
 */
import type { SessionPort, SessionQueries } from '../session-port.ts';
import type { TuiInfo } from '../views.ts';
import { describeChord, type Keymap, type KeyAction } from '../keymap.ts';
import { c } from '../render/theme.ts';
import type { CommandSpec } from '../state/completion.ts';
import type { Picker } from '../state/ui-state.ts';
import { agentsCommand } from './agents-command.ts';
import { mcpCommand } from './mcp-command.ts';
import { rewindCommand } from './rewind-command.ts';

export const COMMANDS: CommandSpec[] = [
  { name: 'help', description: 'commands and keys' },
  { name: 'clear', description: 'start a new session' },
  { name: 'model', description: 'show or switch the model', args: '[name]' },
  { name: 'compact', description: 'replace the conversation with a summary to free context', args: '[instructions]' },
  { name: 'cost', description: 'tokens and cost of this session' },
  { name: 'resume', description: 'pick an earlier session to continue' },
  { name: 'rewind', description: 'code and/or conversation back to before a message (also Esc Esc)' },
  { name: 'sessions', description: 'list saved sessions in this folder' },
  { name: 'permissions', description: 'show rules; allow|deny|remove <rule> edits them', args: '[allow|deny|remove <rule>]' },
  { name: 'tools', description: 'the tools the model can use' },
  { name: 'hooks', description: 'the command hooks in force, by event' },
  { name: 'mcp', description: 'MCP servers: state, tools; reconnect or approve one', args: '[reconnect <name>|approve|tools <name>]' },
  { name: 'agents', description: 'sub-agents and their worktrees: stop, diff, merge, remove', args: '[stop|diff|merge|rm <id>]' },
  { name: 'init', description: 'ask the model to write an AGENTS.md for this repo' },
  { name: 'exit', description: 'quit moat' },
];

const ALIASES = ['quit'];

/** A built-in command name: built-ins win over a skill of the same name. */
export function isBuiltinCommand(name: string): boolean {
  return ALIASES.includes(name) || COMMANDS.some((c) => c.name === name);
}

export const INIT_PROMPT = `Please analyse this repository and write an AGENTS.md file at its root for future coding agents working here. Include:
- the commands to build, lint, type-check and run the tests (and how to run a single test);
- the high-level architecture: the main folders, how they depend on each other, and the entry points;
- the conventions a newcomer would not guess (naming, error handling, testing style).
Keep it concise (about 20–60 lines). If an AGENTS.md (or CLAUDE.md, .cursorrules, README) already exists, read it first and improve on it rather than starting over.`;

export interface CommandContext {
  session: SessionPort;
  queries: SessionQueries;
  keymap: Keymap;
  /** Skills, runnable as `/name args`: /help lists them. */
  skills: CommandSpec[];
  /** MCP servers' prompts, runnable as `/mcp__server__prompt args`: /help lists them. */
  mcpPrompts: CommandSpec[];
  print(lines: string[]): void;
  notice(level: 'info' | 'warning' | 'error', text: string): void;
  openPicker(picker: Omit<Picker, 'index'>): void;
  /** Sends a prompt to the model as if typed. */
  prompt(text: string): void;
  /** `/compact`: summarizes the conversation now, the instructions added to the summary request. */
  compact(instructions: string): void;
  /** After /clear, /resume, /model: the status line must follow. */
  setInfo(info: TuiInfo): void;
  showHistory(id: string): void;
  resetSession(): void;
  exit(): void;
  /** Work that finishes later (git, for /agents): a failure becomes an error notice, never an unhandled rejection. */
  background(work: Promise<void>): void;
}

const HELP_KEYS: [KeyAction, string][] = [
  ['submit', 'send'],
  ['newline', 'new line (or end the line with \\)'],
  ['interrupt', 'interrupt the model'],
  ['clearOrExit', 'clear the input; twice to exit'],
  ['exit', 'exit on an empty prompt'],
  ['cycleMode', 'cycle permission mode'],
  ['expand', 'expand the last thinking / tool output'],
  ['historyPrev', 'previous prompt'],
  ['complete', 'complete a command or @file'],
];

function age(ms: number): string {
  const s = Math.max(0, (Date.now() - ms) / 1000);
  if (s < 90) return 'just now';
  if (s < 5400) return `${Math.round(s / 60)} min ago`;
  if (s < 129_600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

export function runSlashCommand(line: string, ctx: CommandContext): void {
  const k = c();
  const [head = '', ...rest] = line.trim().slice(1).split(/\s+/);
  const arg = rest.join(' ').trim();
  const { session, queries } = ctx;
  switch (head) {
    case 'help': {
      const usage = (cmd: CommandSpec) => `  /${cmd.name}${cmd.args ? ` ${cmd.args}` : ''}  ${k.dim(cmd.description)}`;
      const lines = [k.bold('Commands'), ...COMMANDS.map(usage)];
      if (ctx.skills.length > 0) lines.push('', k.bold('Skills'), ...ctx.skills.map(usage));
      if (ctx.mcpPrompts.length > 0) lines.push('', k.bold('MCP prompts'), ...ctx.mcpPrompts.map(usage));
      lines.push('', k.bold('Keys'));
      for (const [action, what] of HELP_KEYS) lines.push(`  ${ctx.keymap[action].map(describeChord).join(', ')}  ${k.dim(what)}`);
      lines.push('', k.dim('  !command runs a shell command and gives its output to the model with your next prompt'));
      lines.push(k.dim('  @path attaches a file to your prompt'));
      ctx.print(lines);
      return;
    }
    case 'clear': {
      try {
        session.submit({ type: 'new_session' });
      } catch (e) {
        ctx.notice('error', e instanceof Error ? e.message : String(e));
        return;
      }
      const info = queries.info();
      ctx.resetSession();
      ctx.setInfo(info);
      ctx.print([k.dim('─'.repeat(40)), k.dim(`New session ${info.sessionId.slice(0, 8)} — the model no longer sees the conversation above.`)]);
      return;
    }
    case 'model': {
      if (arg) {
        try {
          session.submit({ type: 'set_model', model: arg });
        } catch (e) {
          ctx.notice('error', e instanceof Error ? e.message : String(e));
          return;
        }
        ctx.setInfo(queries.info());
        ctx.notice('info', `Model set to ${arg}.`);
        return;
      }
      const current = queries.info().model;
      ctx.openPicker({
        title: `Model (now ${current})`,
        items: queries.models().map((m) => ({ label: m, value: m, ...(m === current ? { detail: 'current' } : {}) })),
        onSelect: (m) => {
          session.submit({ type: 'set_model', model: m });
          ctx.setInfo(queries.info());
          ctx.notice('info', `Model set to ${m}.`);
        },
      });
      return;
    }
    case 'compact':
      ctx.compact(arg);
      return;
    case 'cost': {
      const cost = queries.cost();
      const u = cost.usage;
      ctx.print([
        `${k.bold('Session cost')} $${cost.sessionCostUsd.toFixed(4)} over ${cost.turns} turns`,
        k.dim(`  input ${u.inputTokens} · output ${u.outputTokens} · cache write ${u.cacheCreationInputTokens} · cache read ${u.cacheReadInputTokens} tokens`),
      ]);
      return;
    }
    case 'resume': {
      const sessions = queries.listSessions().filter((s) => s.id !== queries.info().sessionId);
      if (sessions.length === 0) {
        ctx.notice('info', 'No earlier sessions in this folder.');
        return;
      }
      ctx.openPicker({
        title: 'Resume a session',
        items: sessions.map((s) => ({ label: s.title || '(untitled)', detail: `${age(s.updatedAt)} · ${s.id.slice(0, 8)}`, value: s.id })),
        onSelect: (id) => ctx.showHistory(id),
      });
      return;
    }
    case 'rewind':
      rewindCommand(ctx);
      return;
    case 'sessions': {
      const sessions = queries.listSessions();
      if (sessions.length === 0) {
        ctx.notice('info', 'No saved sessions in this folder.');
        return;
      }
      const current = queries.info().sessionId;
      ctx.print([
        k.bold('Sessions'),
        ...sessions.map((s) => `  ${s.id === current ? k.green('●') : ' '} ${s.id.slice(0, 8)}  ${(s.title || '(untitled)').slice(0, 60)}  ${k.dim(age(s.updatedAt))}`),
        k.dim('  /resume opens one'),
      ]);
      return;
    }
    case 'permissions':
      permissionsCommand(arg, ctx);
      return;
    case 'hooks': {
      const hooks = ctx.queries.hooks();
      const lines = hooks.length === 0 ? [k.dim('No hooks. Add them to .claude/settings.json or [[hooks.<Event>]] in config.toml.')] : [k.bold('Hooks')];
      for (const h of hooks) lines.push(`  ${h.event}${h.matcher === undefined ? '' : `(${h.matcher})`}  ${h.command}  ${k.dim(`${h.source} · ${Math.round(h.timeoutMs / 1000)} s`)}`);
      for (const g of ctx.queries.untrustedGrants()) lines.push(k.dim(`  ignored until the folder is trusted: ${g}`));
      ctx.print(lines);
      return;
    }
    case 'tools': {
      const tools = queries.tools();
      ctx.print([k.bold('Tools'), ...tools.map((t) => `  ${t.name.padEnd(12)} ${k.dim(`${t.effect.padEnd(8)} ${t.description.split('\n')[0]?.slice(0, 80) ?? ''}`)}`)]);
      return;
    }
    case 'agents':
      agentsCommand(arg, ctx);
      return;
    case 'mcp':
      mcpCommand(arg, ctx);
      return;
    case 'init':
      ctx.prompt(INIT_PROMPT);
      return;
    case 'exit':
    case 'quit':
      ctx.exit();
      return;
    default:
      ctx.notice('warning', `Unknown command /${head}. /help lists the commands and skills.`);
  }
}

function permissionsCommand(arg: string, ctx: CommandContext): void {
  const k = c();
  const { session, queries } = ctx;
  const m = /^(allow|deny|remove)\s+(.+)$/.exec(arg);
  if (arg && !m) {
    ctx.notice('warning', 'Usage: /permissions [allow|deny|remove <rule>], e.g. /permissions allow Bash(npm test:*)');
    return;
  }
  if (m) {
    const [, verb, rule = ''] = m;
    try {
      if (verb === 'remove') {
        // From both lists: `remove` means the rule should no longer apply at all.
        const text = rule.trim();
        const lists = new Set(queries.permissionRules().flatMap((r) => (r.rule === text && r.behavior !== 'ask' ? [r.behavior] : [])));
        for (const behavior of lists) session.submit({ type: 'remove_rule', behavior, rule: text });
        const removed = lists.size > 0;
        ctx.notice(removed ? 'info' : 'warning', removed ? `Removed ${rule}.` : `No rule ${rule} to remove. /permissions lists the rules.`);
      } else {
        session.submit({ type: 'add_rule', behavior: verb === 'deny' ? 'deny' : 'allow', rule, scope: 'project' });
        ctx.notice('info', `${verb === 'deny' ? 'Denied' : 'Allowed'} ${rule} for this project (.moat/config.toml).`);
      }
    } catch (e) {
      ctx.notice('error', e instanceof Error ? e.message : String(e));
    }
    return;
  }
  const rules = queries.permissionRules();
  const mode = queries.info().permissionMode;
  const lines = [`${k.bold('Permissions')} ${k.dim(`mode: ${mode}`)}`];
  if (rules.length === 0) lines.push(k.dim('  no rules'));
  for (const r of rules) lines.push(`  ${r.behavior === 'allow' ? k.green('allow') : k.red('deny ')} ${r.rule} ${k.dim(`(${r.source})`)}`);
  lines.push(k.dim('  /permissions allow <rule> · deny <rule> · remove <rule>'));
  ctx.print(lines);
}
