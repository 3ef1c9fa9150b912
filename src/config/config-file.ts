/** Reads and validates one TOML config file, with file:line errors. */
import { readFileSync } from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { MoatError, errorMessage, isRecord, lineOfPath, outlineToml, type TomlOutline } from '../util/index.ts';
import { formatKeyPath } from '../contracts/index.ts';
import { describeIssues } from './issues.ts';
import { fileShape, fileShapeFor, type FileConfig } from './schema.ts';

/** One config file, parsed and validated. */
export interface ConfigFile {
  path: string;
  /** How the path is shown in messages (relative to cwd, or with `~`). */
  display: string;
  source: string;
  data: FileConfig;
  /** Where each key is written; worked out on first use (errors, saving a rule). */
  readonly outline: TomlOutline;
}

function fail(display: string, line: number, what: string): MoatError {
  return new MoatError('config', `${display}:${line}: ${what}`);
}

/**
 * Parses and validates config text. Any problem is a `MoatError('config')`
 * with one line, `FILE:LINE: key.path: what is wrong`; with several problems,
 * the one nearest the top of the file is reported.
 */
export function parseConfigText(source: string, path: string, display: string = path): ConfigFile {
  let raw: unknown;
  try {
    raw = parse(source);
  } catch (e) {
    if (e instanceof TomlError) {
      // smol-toml's message is "Invalid TOML document: <what>\n\n<code excerpt>"; keep <what>.
      const what = (e.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
      throw fail(display, e.line, `invalid TOML: ${what}`);
    }
    throw new MoatError('config', `${display}: cannot parse: ${errorMessage(e)}`, { cause: e });
  }
  const result = (isRecord(raw) ? fileShapeFor(Object.keys(raw)) : fileShape()).safeParse(raw);
  if (!result.success) {
    const outline = outlineToml(source);
    const problems = describeIssues(result.error.issues, raw).map((p) => ({ ...p, line: lineOfPath(outline, p.path) }));
    const first = problems.reduce((a, b) => (b.line < a.line ? b : a));
    throw fail(display, first.line, `${formatKeyPath(first.path)}: ${first.message}`);
  }
  let outline: TomlOutline | undefined;
  return {
    path,
    display,
    source,
    data: result.data,
    get outline(): TomlOutline {
      return (outline ??= outlineToml(source));
    },
  };
}

/** Reads a config file; a missing file is `undefined` (it is optional), an unreadable one an error. */
export function readConfigFile(path: string, display: string = path): ConfigFile | undefined {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MoatError('config', `${display}: cannot read: ${errorMessage(e)}`, { cause: e });
  }
  return parseConfigText(source, path, display);
}
