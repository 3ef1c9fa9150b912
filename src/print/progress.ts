/** One human line per notable event, for `-p --verbose` (text) and `--debug`, on stderr. */
import type { SessionEvent } from '../protocol/index.ts';

export interface Colors {
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
}

export function makeColors(enabled: boolean | (() => boolean)): Colors {
  // A function is asked once, on the first colored line (the terminal check loads node:tty, which -p need not pay before its first request).
  let on = typeof enabled === 'boolean' ? enabled : undefined;
  const isOn = () => (on ??= (enabled as () => boolean)());
  const wrap = (open: number, close: number) => (s: string) => (isOn() ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return { dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39) };
}

function oneLine(s: string, max = 160): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Human progress for `--verbose` text mode, written to stderr; undefined for events it skips. */
export function progressLine(e: SessionEvent, c: Colors): string | undefined {
  switch (e.type) {
    case 'session_started':
      return c.dim(`moat: session ${e.sessionId} (${e.model}, ${e.permissionMode}${e.resumed ? ', resumed' : ''})`);
    case 'turn_started':
      return c.dim(`moat: turn ${e.turn}`);
    case 'tool_call_ready':
      return `${c.yellow('→')} ${e.name} ${oneLine(JSON.stringify(e.input))}`;
    case 'tool_finished':
      return e.isError
        ? `${c.red('✗')} ${e.name} ${c.dim(`(${e.durationMs} ms)`)} ${oneLine(e.content)}`
        : `${c.green('✓')} ${e.name} ${c.dim(`(${e.durationMs} ms)`)}`;
    case 'permission_denied':
      return `${c.red('✗')} ${e.toolName} ${c.dim('denied:')} ${oneLine(e.message)}`;
    case 'retry':
      return c.yellow(`moat: ${e.message}; retrying in ${(e.delayMs / 1000).toFixed(1)} s (attempt ${e.attempt})`);
    case 'model_fallback':
      return c.yellow(`moat: ${e.from}: ${e.reason}; switching to ${e.to}`);
    case 'notice':
      return e.level === 'error' ? c.red(`moat: ${e.message}`) : c.yellow(`moat: ${e.message}`);
    case 'hook_output':
      return c.dim(`moat: ${e.event} hook ${oneLine(e.command, 60)}: ${oneLine(e.output)}`);
    case 'usage':
      return c.dim(`moat: ${e.turnUsage.inputTokens} in / ${e.turnUsage.outputTokens} out tokens, $${e.sessionCostUsd.toFixed(4)} so far`);
    case 'subagent_started':
      return c.dim(`moat: agent ${e.agentId} started: ${e.description}${e.worktree ? ` (branch ${e.worktree.branch})` : ''}${e.background ? ', in the background' : ''}`);
    case 'subagent_finished':
      return c.dim(`moat: agent ${e.agentId} ${e.status} after ${e.turns} turns, $${e.costUsd.toFixed(4)}${e.changes ? `; ${e.changes.files.length} files on ${e.changes.branch}` : ''}`);
    case 'subagent_event': {
      // A sub-agent's tool activity, tagged with its id; its turn and usage chatter stays out.
      const inner = ['tool_call_ready', 'tool_finished', 'retry', 'model_fallback', 'notice', 'hook_output', 'subagent_event', 'subagent_started', 'subagent_finished'].includes(e.event.type)
        ? progressLine(e.event, c)
        : undefined;
      return inner === undefined ? undefined : `${c.dim(`[${e.agentId}]`)} ${inner}`;
    }
    default:
      return undefined;
  }
}
