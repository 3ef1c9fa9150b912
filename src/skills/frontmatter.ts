/** Splits a Markdown file into YAML frontmatter and body, tolerant of Claude Code's files. */
import { DefinitionError } from './definition-error.ts';

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
}

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSE = /^---[ \t]*$/m;

/**
 * Claude Code's files often carry plain one-line values that strict YAML
 * rejects, most often a description containing `: ` ("Use this agent when:
 * …"). Claude Code accepts them, so we do too: on a parse error, every
 * top-level `key: value` line that is not valid YAML by itself is single-quoted (no
 * escapes in single quotes, so `\n` stays as written) and parsing is retried.
 * The same goes for Claude Code's `argument-hint: [add|remove] [id]`.
 */
function quotePlainValues(yaml: string): string {
  return yaml
    .split(/\r?\n/)
    .map((line) => {
      const m = /^([A-Za-z_][\w-]*):[ \t]+(.+?)\s*$/.exec(line);
      if (!m) return line;
      const [, key, value] = m as unknown as [string, string, string];
      // Only lines that fail on their own are quoted: `max_turns: 5` must stay a number, `[a, b]` a list.
      if (/^["'|>&*!#]/.test(value) || parsesAlone(line)) return line;
      return `${key}: '${value.replaceAll("'", "''")}'`;
    })
    .join('\n');
}

function parsesAlone(line: string): boolean {
  try {
    Bun.YAML.parse(line);
    return true;
  } catch {
    return false;
  }
}

function parseYaml(yaml: string): unknown {
  try {
    return Bun.YAML.parse(yaml);
  } catch (first) {
    try {
      return Bun.YAML.parse(quotePlainValues(yaml));
    } catch {
      const reason = first instanceof Error ? first.message.replace(/^YAML Parse error:\s*/, '') : String(first);
      throw new DefinitionError(`the frontmatter is not valid YAML (${reason})`);
    }
  }
}

/**
 * Splits `---\n<yaml>\n---\n<body>` and parses the YAML. A file without
 * frontmatter, or with frontmatter that is not a mapping, is an error: every
 * skill and agent needs at least a description.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text);
  if (!open) throw new DefinitionError('no frontmatter: the file must start with a line "---", the YAML fields, then "---"');
  const rest = text.slice(open[0].length);
  const close = CLOSE.exec(rest);
  if (!close) throw new DefinitionError('the frontmatter is not closed: add a line "---" after the fields');
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length).replace(/^\r?\n/, '');
  const data = yaml.trim() === '' ? {} : parseYaml(yaml);
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new DefinitionError('the frontmatter must be YAML fields (key: value), not a single value or a list');
  }
  return { data: data as Record<string, unknown>, body };
}
