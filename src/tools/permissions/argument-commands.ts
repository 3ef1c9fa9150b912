/** Commands that run other commands or write files through their own arguments: find, sed and awk. */
import { awkEffects } from './awk-program.ts';
import { basename, expansionPattern, maySplit, noEffects, unreadable, writesAnywhere, writesFile, writesWord, type ArgumentEffects } from './argument-words.ts';
import { sedEffects } from './sed-script.ts';
import type { ShellWord } from './shell-syntax.ts';

/**
 * `find … -exec rm {} ;`, `sed 's/x/y/e'`, `awk 'BEGIN{system("id")}'` look
 * like a search or a text filter, and a rule such as `Bash(find:*)` was
 * written for that. bash-allow.ts lets only an exact rule cover them;
 * bash-deny.ts tries the commands they spell out against deny rules, and
 * treats what they build at run time like interpreter code.
 */

/** find's actions that run a command (bash-deny.ts reads the command) and those that delete or write files. */
const FIND_RUNS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const FIND_WRITES = new Set(['-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);
const FIND_ACTIONS = [...FIND_RUNS, ...FIND_WRITES];

/** Tests whose one argument is a name, pattern, number or file: never read as an action. */
const FIND_TAKES_ONE = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname',
  '-type', '-xtype', '-user', '-group', '-uid', '-gid', '-perm', '-size', '-links', '-inum', '-samefile', '-newer',
  '-anewer', '-cnewer', '-amin', '-atime', '-cmin', '-ctime', '-mmin', '-mtime', '-used', '-maxdepth', '-mindepth',
  '-fstype', '-context', '-regextype', '-printf', '-files0-from',
]);

/** The paths find starts from: after its own options (`-H`, `-L`, `-P`, `-D LIST`, `-O3`, then `--`), before the expression. */
function startPoints(args: readonly ShellWord[]): ShellWord[] {
  let i = 0;
  while (i < args.length && /^-([HLP]|D|O\d*)$/.test(args[i]?.value ?? '')) i += args[i]?.value === '-D' ? 2 : 1;
  if (args[i]?.value === '--') i++;
  const starts: ShellWord[] = [];
  // The expression starts at the first word that begins with `-`, or is `(` or `!`.
  for (const word of args.slice(i)) {
    if (/^[-(!]/.test(word.value)) break;
    starts.push(word);
  }
  return starts;
}

function findEffects(args: readonly ShellWord[]): ArgumentEffects {
  const fx = noEffects();
  let deletes = false;
  let startsFromFile = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) break;
    const w = word.value;
    if (FIND_RUNS.has(w)) {
      fx.runs = true;
      // The command's words, up to `;` or `+`, are its own (`{}` among them).
      while (i + 1 < args.length && !['+', ';'].includes(args[i + 1]?.value ?? '')) i++;
    } else if (FIND_WRITES.has(w)) {
      fx.writes = true;
      // `-fprint FILE` and the like name their file next; the loop still reads it as a word that may be an action.
      const file = args[i + 1];
      if (w === '-delete') deletes = true;
      else if (file !== undefined) writesWord(fx, file);
    } else if (FIND_TAKES_ONE.has(w) || /^-newer[aBcmt]{2}$/.test(w)) {
      if (w === '-files0-from') startsFromFile = true;
      // `-name "$P"` is a name whatever P holds; an unquoted `$P` may split into more words.
      if (maySplit(args[i + 1]?.raw ?? '')) unreadable(fx);
      i++;
    } else if (word.expands && (maySplit(word.raw) || FIND_ACTIONS.some((a) => expansionPattern(w).test(a)))) {
      // `find . $X`, `find *` (a file named `-delete`): the action is only known when it runs.
      unreadable(fx);
    }
  }
  if (deletes) {
    // `-delete` removes what it finds, anywhere under the starting points; without any, find starts at `.`.
    const starts = startPoints(args);
    if (startsFromFile) writesAnywhere(fx);
    else if (starts.length === 0) writesFile(fx, '.');
    for (const start of starts) writesWord(fx, start);
  }
  return fx;
}

const READERS: ReadonlyMap<string, (args: readonly ShellWord[]) => ArgumentEffects> = new Map([
  ...['find', 'gfind'].map((n) => [n, findEffects] as const),
  ...['sed', 'gsed'].map((n) => [n, sedEffects] as const),
  ...['awk', 'gawk', 'mawk', 'nawk'].map((n) => [n, awkEffects] as const),
]);

/** What a command does through its arguments (`busybox awk …` included); null when it is none of those read here. */
export function argumentEffects(words: readonly ShellWord[]): ArgumentEffects | null {
  let name = basename(words[0]?.value ?? '');
  let args = words.slice(1);
  if (name === 'busybox' || name === 'toybox') {
    name = basename(args[0]?.value ?? '');
    args = args.slice(1);
  }
  return READERS.get(name)?.(args) ?? null;
}
