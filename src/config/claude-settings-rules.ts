/** Adds permission rules to a Claude Code settings file, as Claude Code does with an "always" answer. */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage, isRecord, MoatError } from '../util/index.ts';

/**
 * Appends `rules` to `permissions.<list>` of the settings file at `path`
 * (created if missing), keeping every other key as it was and each rule once.
 * A file that is not a settings object is left alone: one error naming it.
 */
export function addClaudeSettingsRules(path: string, list: 'allow' | 'deny' | 'ask', rules: readonly string[]): void {
  let data: Record<string, unknown> = {};
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new MoatError('config', `${path}: cannot read: ${errorMessage(e)}`);
  }
  if (text.trim() !== '') {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new MoatError('config', `${path}: not valid JSON, so the rule was not saved: ${errorMessage(e)}`);
    }
    if (!isRecord(json)) throw new MoatError('config', `${path}: not a settings object, so the rule was not saved`);
    data = json;
  }
  const permissions = data['permissions'] ?? {};
  if (!isRecord(permissions)) throw new MoatError('config', `${path}: permissions is not an object, so the rule was not saved`);
  const existing = permissions[list] ?? [];
  if (!Array.isArray(existing)) throw new MoatError('config', `${path}: permissions.${list} is not a list, so the rule was not saved`);
  const added = rules.filter((r) => !existing.includes(r));
  if (added.length === 0) return;
  data['permissions'] = { ...permissions, [list]: [...existing, ...added] };
  mkdirSync(dirname(path), { recursive: true });
  // Write-then-rename: a second moat or a crash never leaves half a file.
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`);
  renameSync(tmp, path);
}
