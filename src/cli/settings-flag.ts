/** `--settings <file-or-json>` and `--setting-sources`: Claude Code's settings given on the command line. */
import { formatKeyPath } from '../contracts/index.ts';
import { PERMISSION_MODES } from '../contracts/index.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { hooksShape, settingsIssue, type ConfigFlags } from '../config/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';

/**
 * The part of Claude Code's settings.json a run applies, the same keys a
 * settings file gives; other keys are accepted and left alone. What the user
 * passes on the command line is theirs: its allow rules and hooks apply
 * without trusting the folder.
 */
const flagSettingsShape = () =>
  z.looseObject({
    permissions: z
      .looseObject({
        allow: z.array(z.string()).optional(),
        deny: z.array(z.string()).optional(),
        ask: z.array(z.string()).optional(),
        defaultMode: z.enum(PERMISSION_MODES).optional(),
        additionalDirectories: z.array(z.string()).optional(),
      })
      .optional(),
    model: z.string().optional(),
    env: z.record(z.string(), z.string()).optional(),
    hooks: hooksShape().optional(),
  });

export type FlagSettings = z.infer<ReturnType<typeof flagSettingsShape>>;

/**
 * Reads `--settings`: JSON text (starting with `{`) or a file holding it. A
 * mistake is one usage line naming the file (or "--settings") and the key.
 */
export function settingsFlag(value: string | undefined, cwd: string): FlagSettings {
  if (value === undefined) return {};
  const inline = value.trimStart().startsWith('{');
  const where = inline ? '--settings' : resolve(cwd, value);
  let text = value;
  if (!inline) {
    try {
      text = readFileSync(where, 'utf8');
    } catch (e) {
      throw new MoatError('usage', `--settings ${value}: cannot read it: ${errorMessage(e)}`);
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new MoatError('usage', `${where}: not JSON: ${errorMessage(e)}`);
  }
  const parsed = flagSettingsShape().safeParse(json);
  if (!parsed.success) {
    const { keyPath, message } = settingsIssue(parsed.error.issues[0]);
    throw new MoatError('usage', `${where}: ${keyPath.length > 0 ? `${formatKeyPath(keyPath)}: ` : ''}${message}`);
  }
  return parsed.data;
}

/** What `--settings` adds to the flags beside the rules and folders the CLI merges itself: ask rules and hooks. */
export function flagSettingsConfig(s: FlagSettings): Pick<ConfigFlags, 'askRules' | 'hooks'> {
  return {
    ...(s.permissions?.ask === undefined ? {} : { askRules: s.permissions.ask }),
    ...(s.hooks === undefined ? {} : { hooks: s.hooks }),
  };
}

const SOURCES = ['user', 'project', 'local'] as const;

/** `--setting-sources user,project,local`: which settings files to read; an unknown name is a usage error. */
export function settingSources(value: string | undefined): (typeof SOURCES)[number][] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = names.filter((n) => !(SOURCES as readonly string[]).includes(n));
  if (bad.length > 0) throw new MoatError('usage', `--setting-sources: unknown source ${bad.join(', ')}; use ${SOURCES.join(', ')}`);
  return names as (typeof SOURCES)[number][];
}
