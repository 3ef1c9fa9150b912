import { describe, expect, test } from 'bun:test';
import { readCommandLine, type CommandLine } from '../../../src/tools/permissions/shell-syntax.ts';
import './helpers.ts';

const SUBST = 'command substitution ($(…) or backticks)';
const SYNTAX = 'a syntax error (an unclosed quote, bracket or here-document)';

/** Compact view: each simple command as its word values, plus assignments and redirections when present. */
function view(s: CommandLine): { commands: string[][]; unsupported: string[] } {
  return {
    commands: s.commands.map((c) => [
      ...c.assignments.map((a) => `assign:${a.raw}`),
      ...c.words.map((w) => w.value),
      ...c.redirections.map((r) => `redir:${r.fd ?? ''}${r.op}${r.target?.value ?? '∅'}`),
    ]),
    unsupported: s.unsupported,
  };
}

const read = (line: string): ReturnType<typeof view> => view(readCommandLine(line));

describe('readCommandLine', () => {
  test('a plain command, word by word', () => {
    expect(readCommandLine('git commit -m "a b"')).toEqual({
      commands: [
        {
          assignments: [],
          words: [
            { raw: 'git', value: 'git', expands: false },
            { raw: 'commit', value: 'commit', expands: false },
            { raw: '-m', value: '-m', expands: false },
            { raw: '"a b"', value: 'a b', expands: false },
          ],
          redirections: [],
          piped: false,
          pipedFrom: null,
        },
      ],
      unsupported: [],
      redirections: [],
      syntaxError: false,
      skipped: [],
    });
  });

  const separators: [string, string[][]][] = [
    ['a; b', [['a'], ['b']]],
    ['a && b', [['a'], ['b']]],
    ['a || b', [['a'], ['b']]],
    ['a | b', [['a'], ['b']]],
    ['a |& b', [['a'], ['b']]],
    ['a & b', [['a'], ['b']]],
    ['a\nb', [['a'], ['b']]],
    ['a&&b||c;d|e', [['a'], ['b'], ['c'], ['d'], ['e']]],
    ['a;', [['a']]],
    ['a;;b', [['a'], ['b']]],
  ];
  for (const [line, commands] of separators) {
    test(`splits ${JSON.stringify(line)}`, () => {
      // `a;;b` is a syntax error to bash, which then runs nothing: reading two commands errs on the safe side.
      expect(read(line)).toEqual({ commands, unsupported: [] });
    });
  }

  test('quotes and escapes keep separators literal', () => {
    expect(read(`echo 'a;b' "c && d" e\\;f g\\|h`)).toEqual({ commands: [['echo', 'a;b', 'c && d', 'e;f', 'g|h']], unsupported: [] });
    expect(read('echo "a \\" ; b"')).toEqual({ commands: [['echo', 'a " ; b']], unsupported: [] });
    expect(read("echo $'a\\'b;c' $'\\x72m\\t\\101'")).toEqual({ commands: [['echo', "a'b;c", 'rm\tA']], unsupported: [] });
  });

  test('line continuations join, comments end at the newline', () => {
    expect(read('npm \\\n test # ; rm -rf x\nls')).toEqual({ commands: [['npm', 'test'], ['ls']], unsupported: [] });
    expect(read('echo a#b')).toEqual({ commands: [['echo', 'a#b']], unsupported: [] });
  });

  test('assignments and redirections are set apart', () => {
    expect(read('FOO=1 BAR="x y" npm test 2>&1 >out.txt < in &>> log')).toEqual({
      commands: [['assign:FOO=1', 'assign:BAR="x y"', 'npm', 'test', 'redir:2>&1', 'redir:>out.txt', 'redir:<in', 'redir:&>>log']],
      unsupported: [],
    });
    // A later NAME=value is an argument, not an assignment.
    expect(read('make CC=gcc')).toEqual({ commands: [['make', 'CC=gcc']], unsupported: [] });
    expect(read('echo 2 > x')).toEqual({ commands: [['echo', '2', 'redir:>x']], unsupported: [] });
    // The grammar gives `a && b > x`'s redirection to the list, and `> x y` both words to the redirection: bash does neither.
    expect(read('cd /etc && git log > passwd').commands).toEqual([['cd', '/etc'], ['git', 'log', 'redir:>passwd']]);
    expect(read('echo hi > /dev/null rm').commands).toEqual([['echo', 'hi', 'rm', 'redir:>/dev/null']]);
  });

  test('command and process substitution are not allowed, and the commands inside them are found', () => {
    expect(read('git status $(rm -rf x)')).toEqual({ commands: [['git', 'status', '$(rm -rf x)'], ['rm', '-rf', 'x']], unsupported: [SUBST] });
    expect(read('git status `rm -rf x`')).toEqual({ commands: [['git', 'status', '`rm -rf x`'], ['rm', '-rf', 'x']], unsupported: [SUBST] });
    expect(read('echo "$(a "$(b)")"').commands).toEqual([['echo', '$(a "$(b)")'], ['a', '$(b)'], ['b']]);
    expect(read('diff <(ls a) >(tee b)')).toEqual({
      commands: [['diff', '<(ls a)', '>(tee b)'], ['ls', 'a'], ['tee', 'b']],
      unsupported: ['process substitution (<(…) or >(…))'],
    });
    expect(read('echo ${x:-$(id)}').unsupported).toEqual(['a ${…} expansion with an operator', SUBST]);
    expect(read('echo ${HOME}; ls')).toEqual({ commands: [['echo', '${HOME}'], ['ls']], unsupported: [] });
  });

  test('unbalanced quotes and parentheses, subshells', () => {
    expect(read('echo "abc; rm -rf x')).toEqual({ commands: [['echo']], unsupported: [SYNTAX] });
    expect(read("echo 'abc")).toEqual({ commands: [['echo']], unsupported: [SYNTAX] });
    expect(read('echo $(ls')).toEqual({ commands: [['echo', '$(ls'], ['ls']], unsupported: [SUBST, SYNTAX] });
    expect(read('(cd x && rm -rf y)')).toEqual({ commands: [['cd', 'x'], ['rm', '-rf', 'y']], unsupported: ['a subshell or ( … ) grouping'] });
    expect(read('echo >')).toEqual({ commands: [['echo']], unsupported: [SYNTAX] });
  });

  test('here-documents: the body is the input, an expanded body is searched', () => {
    const quoted = readCommandLine("git commit -F - <<'EOF'\nfix: a; rm -rf x\n$(id)\nEOF\nls");
    expect(view(quoted)).toEqual({ commands: [['git', 'commit', '-F', '-', 'redir:<<EOF'], ['ls']], unsupported: [] });
    expect(quoted.commands[0]?.redirections[0]?.input).toBe('fix: a; rm -rf x\n$(id)\n');
    expect(read('cat <<EOF\n$(rm -rf x)\nEOF')).toEqual({ commands: [['cat', 'redir:<<EOF'], ['rm', '-rf', 'x']], unsupported: [SUBST] });
    const tabs = readCommandLine('cat <<-EOF\n\tbody\n\tEOF\nls');
    expect(view(tabs).commands).toEqual([['cat', 'redir:<<-EOF'], ['ls']]);
    expect(tabs.commands[0]?.redirections[0]?.input).toBe('body\n');
    expect(read('cat <<EOF\nno end').unsupported).toEqual([SYNTAX]);
    // The rest of the here-document's line: a pipe stage reading the body, and a following command.
    const piped = readCommandLine("cat <<'EOF' | sh && ls\nrm -rf x\nEOF");
    expect(view(piped).commands).toEqual([['cat', 'redir:<<EOF'], ['sh'], ['ls']]);
    expect(piped.commands[1]?.pipedFrom).toBe(piped.commands[0] ?? null);
  });

  test('words that expand at run time are marked', () => {
    const s = readCommandLine('$CMD *.ts "$HOME" plain {a,b} a\\*b');
    expect(s.commands[0]?.words.map((w) => [w.raw, w.expands])).toEqual([
      ['$CMD', true],
      ['*.ts', true],
      ['"$HOME"', true],
      ['plain', false],
      ['{a,b}', true],
      ['a\\*b', false],
    ]);
  });
});

/**
 * The reader against bash itself. With PATH pointing nowhere, bash calls
 * command_not_found_handle for every command it would run, so it can report
 * each one's arguments without running anything. Every command bash runs must
 * be among those the reader found — for the plain lines allow rules may
 * approve, and for the rest, which deny rules search.
 */
describe('readCommandLine agrees with bash', () => {
  // Reported on fd 9, which the lines leave alone, so `> /dev/null` does not hide a command.
  const REPORT = `exec 9>&1\ncommand_not_found_handle() { local IFS=$'\\x1f'; printf 'RAN\\x1f%s\\n' "$*" >&9; return 0; }\n`;
  const bashPath = Bun.which('bash') ?? '/bin/bash';
  const ranByBash = (line: string): string[] => {
    const r = Bun.spawnSync([bashPath, '--norc', '--noprofile', '-c', REPORT + line], { env: { PATH: '/nonexistent' }, stdin: 'ignore' });
    return r.stdout
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('RAN\x1f'))
      .map((l) => l.slice(4).replaceAll('\x1f', ' '));
  };
  const lines = [
    'xa \'a;b\' "c && d" e\\;f g\\|h',
    'xa\nxb',
    'xa # ; xb',
    'xa \\\n && xb',
    "xa <<'EOF'\nxb\nEOF\nxc",
    'xa <<EOF\nEOF \nxb\nEOF\nxc',
    "xa - <<'EOF'\nbody\nEOF",
    'xa > /dev/null xb',
    '> /dev/null xa -rf',
    'xa | xb > /dev/null && xc',
    "xa $'\\x78b' \"q\\\"q\"",
    'FOO=1 xa',
    'x\\a "xb" \'xc\'',
    'xa; xb & xc',
    "xa <<'EOF' | xb && xc\nbody\nEOF",
    'xa <<-EOF\n\tbody\n\tEOF\nxb',
    'xa $(xb) `xc`',
    'for i in 1 2; do xa "$i"; done',
    'if xa; then xb; else xc; fi',
    'f() { xa; }; f',
    '(xa; xb) | xc',
    'xa <(xb) >(xc)',
    'xa "$(xb "$(xc)")"',
    'case x in x) xa;; esac',
    'while xa; do break; done',
    '{ xa; xb; } > /dev/null',
    'xa "unclosed',
    'xa && ( xb',
    'xa ;; xb',
  ];
  for (const line of lines) {
    test(JSON.stringify(line), () => {
      const parsed = readCommandLine(line);
      // A plain line's words are exactly what bash passes; elsewhere expansions change them, but not the command names.
      const key = (words: string[]): string => (parsed.unsupported.length === 0 ? words.join(' ') : (words[0] ?? ''));
      const found = parsed.commands.map((c) => key(c.words.map((w) => w.value)));
      const ran = ranByBash(line);
      // Bash refuses a line with a syntax error outright (also `;;` outside `case`, which the grammar lets pass).
      if (!parsed.syntaxError && !line.includes(';;')) expect(ran.length).toBeGreaterThan(0);
      for (const argv of ran) expect(found).toContain(key(argv.split(' ')));
    });
  }
});

describe('the grammar loads on the first Bash check, not at start-up', () => {
  test('parsing rules and deciding other calls leave it unloaded; the first Bash decision loads it, with no step to call first', () => {
    const script = `
      import { decidePermission, parseRuleList, ruleForCall } from './src/tools/permissions/index.ts';
      const policy = { mode: 'default', allow: parseRuleList(['Bash(git status)', 'Bash(npm test:*)', 'Read']), deny: parseRuleList(['Bash(rm:*)']), roots: ['/p'], projectRoot: '/p', home: '/h' };
      const bash = { toolName: 'Bash', effect: 'execute', intent: { ruleName: 'Bash', subject: 'git status', paths: [], summary: '' } };
      const read = { toolName: 'Read', effect: 'read', intent: { ruleName: 'Read', subject: '/p/a', paths: [{ path: '/p/a', access: 'read' }], summary: '' } };
      const suggest = () => { try { return ruleForCall(bash, '/p', '/h'); } catch (e) { return String(e.message).slice(0, 33); } };
      const out = [(await decidePermission(read, policy)).kind, suggest()];
      out.push((await decidePermission(bash, policy)).kind, suggest());
      console.log(JSON.stringify(out));
    `;
    const r = Bun.spawnSync([process.execPath, '-e', script], { cwd: `${import.meta.dir}/../../..`, stderr: 'pipe' });
    expect(r.stderr.toString()).toBe('');
    const unloaded = 'the bash parser is not loaded yet';
    expect(JSON.parse(r.stdout.toString())).toEqual(['allow', unloaded, 'allow', 'Bash(git status:*)']);
  });
});
