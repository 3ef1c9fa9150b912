/**
 * Rule names. Claude Code users write rules against Claude Code's tool names
 * (`Read`, `Edit`, `Bash`, `WebFetch`), while our tools are called `read`,
 * `glob`, `write`, `web_fetch`, … Both spellings map to one canonical rule
 * name, compared case-insensitively, so `--allowedTools "edit,Bash"` and a
 * tool intent with ruleName `Edit` meet.
 */

/** Lower-cased spelling → canonical rule name. Names not listed keep their own spelling. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  // Everything that only reads files is governed by Read (as Claude Code applies Read rules to Grep/Glob/LS).
  ['read', 'Read'],
  ['glob', 'Read'],
  ['grep', 'Read'],
  ['ls', 'Read'],
  ['list', 'Read'],
  ['notebookread', 'Read'],
  // Everything that writes files is governed by Edit (Claude Code: "Edit rules apply to all built-in tools that edit files").
  ['edit', 'Edit'],
  ['write', 'Edit'],
  ['multiedit', 'Edit'],
  ['multi_edit', 'Edit'],
  ['notebookedit', 'Edit'],
  ['bash', 'Bash'],
  ['webfetch', 'WebFetch'],
  ['web_fetch', 'WebFetch'],
  ['web-fetch', 'WebFetch'],
  ['websearch', 'WebSearch'],
  ['web_search', 'WebSearch'],
  ['todowrite', 'TodoWrite'],
  ['todo_write', 'TodoWrite'],
  ['task', 'Task'],
  // Claude Code renamed Task to Agent; accept both.
  ['agent', 'Task'],
  ['skill', 'Skill'],
]);

/** The canonical rule name for a tool or rule name, e.g. `glob` → `Read`, `web_fetch` → `WebFetch`. */
export function canonicalRuleName(name: string): string {
  return ALIASES.get(name.toLowerCase()) ?? name;
}
