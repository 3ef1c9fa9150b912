/** The files beside a SKILL.md that the model may read. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { checkContainment } from '../util/index.ts';
import type { Skill } from './types.ts';

const MAX_LISTED = 50;
const MAX_DEPTH = 4;
const MAX_READ_BYTES = 256 * 1024;

/**
 * The files beside SKILL.md (relative paths, sorted), so the model knows what
 * it can ask for. Bounded: a skill folder is meant to hold a few references
 * and scripts, not a repository.
 */
export function skillFiles(skill: Skill): string[] {
  const dir = skill.dir;
  if (!dir) return [];
  const out: string[] = [];
  const walk = (folder: string, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_LISTED) return;
    let names: string[];
    try {
      names = readdirSync(folder).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || out.length >= MAX_LISTED) continue;
      const path = join(folder, name);
      try {
        const st = statSync(path);
        if (st.isDirectory()) walk(path, depth + 1);
        else if (st.isFile() && path !== skill.file) out.push(relative(dir, path));
      } catch {
        // vanished or unreadable: not worth listing
      }
    }
  };
  walk(dir, 0);
  return out;
}

export type SkillFileRead = { ok: true; path: string; text: string } | { ok: false; reason: string };

/**
 * Reads one file of a skill's folder. The path must stay inside the folder,
 * symlinks included: the skill tool reads without asking, which is only safe
 * because the user put these files there.
 */
export function readSkillFile(skill: Skill, file: string): SkillFileRead {
  if (!skill.dir) return { ok: false, reason: `the skill "${skill.name}" is built in and has no other files` };
  const c = checkContainment([skill.dir], skill.dir, file);
  if (!c.ok) return { ok: false, reason: `${file} is not a file of the skill "${skill.name}": ${c.reason}` };
  try {
    const st = statSync(c.realPath);
    if (!st.isFile()) return { ok: false, reason: `${file} is not a file in the skill "${skill.name}"` };
    if (st.size > MAX_READ_BYTES) return { ok: false, reason: `${file} is over ${MAX_READ_BYTES / 1024} KB; too large to return whole` };
    return { ok: true, path: c.path, text: readFileSync(c.realPath, 'utf8') };
  } catch {
    const listed = skillFiles(skill);
    return { ok: false, reason: `${file} does not exist in the skill "${skill.name}". Its files: ${listed.length ? listed.join(', ') : '(none)'}` };
  }
}
