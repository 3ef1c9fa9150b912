// Hook configuration: Claude Code's `hooks` in settings.json and moat's `[[hooks.<Event>]]` in config.toml, one shape.
import { z } from 'zod';
import { once } from '../util/index.ts';

/** Claude Code's hook events; a hook for another name is a config error naming the known ones. */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One command hook: run through the OS sandbox with the event JSON on stdin. */
const commandHook = () =>
  z.strictObject({
    type: z.literal('command').default('command'),
    command: z.string().trim().min(1),
    /** Seconds; default 60. */
    timeout: z.number().positive().max(3600).optional(),
  });

/**
 * A matcher group as Claude Code writes it (`{matcher, hooks: [...]}`), or
 * moat's flat TOML entry (`matcher`, `command`, `timeout` in one table).
 */
const matcherGroup = () =>
  z.union([
    z.strictObject({ matcher: z.string().optional(), hooks: z.array(commandHook()) }),
    z
      .strictObject({ matcher: z.string().optional(), type: z.literal('command').optional(), command: z.string().trim().min(1), timeout: z.number().positive().max(3600).optional() })
      .transform((g) => ({ matcher: g.matcher, hooks: [{ type: 'command' as const, command: g.command, ...(g.timeout === undefined ? {} : { timeout: g.timeout }) }] })),
  ]);

/** The `hooks` key's shape (config files, settings files, --settings), built on first use. */
export const hooksShape = once(() => z.partialRecord(z.enum(HOOK_EVENTS), z.array(matcherGroup())));

export interface CommandHook {
  command: string;
  /** Milliseconds. */
  timeoutMs: number;
  /** Which file it came from, for /hooks and for failure messages. */
  source: string;
}

/** Command hooks per event, each group behind an optional tool-name matcher. */
export type HooksConfig = Partial<Record<HookEvent, { matcher?: string; hooks: CommandHook[] }[]>>;

export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** Appends one file's hooks to the merged set (every source's hooks run; none replaces another). */
export function addHooks(into: HooksConfig, raw: z.infer<ReturnType<typeof hooksShape>> | undefined, source: string): void {
  for (const [event, groups] of Object.entries(raw ?? {}) as [HookEvent, z.infer<ReturnType<typeof matcherGroup>>[]][]) {
    const list = (into[event] ??= []);
    for (const g of groups) {
      list.push({
        ...(g.matcher === undefined || g.matcher === '' ? {} : { matcher: g.matcher }),
        hooks: g.hooks.map((h) => ({ command: h.command, timeoutMs: Math.round((h.timeout ?? DEFAULT_HOOK_TIMEOUT_S) * 1000), source })),
      });
    }
  }
}

/** How many command hooks a set holds. */
export function countHooks(hooks: HooksConfig): number {
  return Object.values(hooks).reduce((n, groups) => n + (groups ?? []).reduce((m, g) => m + g.hooks.length, 0), 0);
}
