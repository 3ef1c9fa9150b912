import { describe, expect, test } from 'bun:test';
import { splitCommand, type SplitCommand } from '../../../src/tools/permissions/index.ts';

/** Compact view: each simple command as its word values, plus assignments and redirections when present. */
function view(s: SplitCommand): { commands: string[][]; hazards: string[]; nested: string[] } {
  return {
    commands: s.commands.map((c) => [
      ...c.assignments.map((a) => `assign:${a.raw}`),
      ...c.words.map((w) => w.value),
      ...c.redirections.map((r) => `redir:${r.fd ?? ''}${r.op}${r.target?.value ?? '∅'}`),
    ]),
    hazards: s.hazards,
    nested: s.nested,
  };
}

describe('splitCommand', () => {
  test('a plain command, word by word', () => {
    expect(splitCommand('git commit -m "a b"')).toEqual({
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
        },
      ],
      hazards: [],
      nested: [],
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
    [';;a', [['a']]],
  ];
  for (const [line, commands] of separators) {
    test(`splits ${JSON.stringify(line)}`, () => {
      expect(view(splitCommand(line))).toEqual({ commands, hazards: [], nested: [] });
    });
  }

  test('quotes and escapes keep separators literal', () => {
    expect(view(splitCommand(`echo 'a;b' "c && d" e\\;f g\\|h`))).toEqual({
      commands: [['echo', 'a;b', 'c && d', 'e;f', 'g|h']],
      hazards: [],
      nested: [],
    });
    expect(view(splitCommand('echo "a \\" ; b"'))).toEqual({ commands: [['echo', 'a " ; b']], hazards: [], nested: [] });
    expect(view(splitCommand("echo $'a\\'b;c' $'\\x72m\\t\\101'"))).toEqual({ commands: [['echo', "a'b;c", 'rm\tA']], hazards: [], nested: [] });
  });

  test('line continuations join, comments end at the newline', () => {
    expect(view(splitCommand('npm \\\n test # ; rm -rf x\nls'))).toEqual({
      commands: [['npm', 'test'], ['ls']],
      hazards: [],
      nested: [],
    });
    expect(view(splitCommand('echo a#b'))).toEqual({ commands: [['echo', 'a#b']], hazards: [], nested: [] });
  });

  test('assignments and redirections are set apart', () => {
    expect(view(splitCommand('FOO=1 BAR="x y" npm test 2>&1 >out.txt < in &>> log'))).toEqual({
      commands: [['assign:FOO=1', 'assign:BAR="x y"', 'npm', 'test', 'redir:2>&1', 'redir:>out.txt', 'redir:<in', 'redir:&>>log']],
      hazards: [],
      nested: [],
    });
    // A later NAME=value is an argument, not an assignment.
    expect(view(splitCommand('make CC=gcc'))).toEqual({ commands: [['make', 'CC=gcc']], hazards: [], nested: [] });
    expect(view(splitCommand('echo 2 > x'))).toEqual({ commands: [['echo', '2', 'redir:>x']], hazards: [], nested: [] });
  });

  test('command and process substitution are hazards, their insides are nested lines', () => {
    expect(view(splitCommand('git status $(rm -rf x)'))).toEqual({
      commands: [['git', 'status', '$(rm -rf x)']],
      hazards: ['command_substitution'],
      nested: ['rm -rf x'],
    });
    expect(view(splitCommand('git status `rm -rf x`'))).toEqual({
      commands: [['git', 'status', '`rm -rf x`']],
      hazards: ['command_substitution'],
      nested: ['rm -rf x'],
    });
    expect(view(splitCommand('echo "$(a "$(b)")"')).nested).toEqual(['a "$(b)"']);
    expect(view(splitCommand('diff <(ls a) >(tee b)'))).toEqual({
      commands: [['diff', '<(ls a)', '>(tee b)']],
      hazards: ['process_substitution'],
      nested: ['ls a', 'tee b'],
    });
    expect(view(splitCommand('echo ${x:-$(id)}')).hazards).toEqual(['command_substitution']);
    expect(view(splitCommand('echo ${HOME}; ls')).commands).toEqual([['echo', '${HOME}'], ['ls']]);
  });

  test('unbalanced quotes and parentheses, subshells', () => {
    expect(view(splitCommand('echo "abc; rm -rf x'))).toEqual({
      commands: [['echo', 'abc; rm -rf x']],
      hazards: ['unbalanced_quotes'],
      nested: [],
    });
    expect(view(splitCommand("echo 'abc"))).toEqual({ commands: [['echo', 'abc']], hazards: ['unbalanced_quotes'], nested: [] });
    expect(view(splitCommand('echo $(ls'))).toEqual({
      commands: [['echo', '$(ls']],
      hazards: ['command_substitution', 'unbalanced_parentheses'],
      nested: ['ls'],
    });
    expect(view(splitCommand('(cd x && rm -rf y)'))).toEqual({
      commands: [['cd', 'x'], ['rm', '-rf', 'y']],
      hazards: ['grouping'],
      nested: [],
    });
    expect(view(splitCommand('echo >'))).toEqual({ commands: [['echo', 'redir:>∅']], hazards: ['missing_redirect_target'], nested: [] });
  });

  test('here-documents: bodies are skipped, expanded bodies are hazards', () => {
    expect(view(splitCommand("git commit -F - <<'EOF'\nfix: a; rm -rf x\n$(id)\nEOF\nls"))).toEqual({
      commands: [['git', 'commit', '-F', '-', 'redir:<<EOF'], ['ls']],
      hazards: [],
      nested: [],
    });
    expect(view(splitCommand('cat <<EOF\n$(rm -rf x)\nEOF'))).toEqual({
      commands: [['cat', 'redir:<<EOF']],
      hazards: ['heredoc_expansion'],
      nested: ['rm -rf x'],
    });
    expect(view(splitCommand('cat <<-EOF\n\tbody\n\tEOF\nls')).commands).toEqual([['cat', 'redir:<<-EOF'], ['ls']]);
    expect(view(splitCommand('cat <<EOF\nno end')).hazards).toEqual(['unterminated_heredoc']);
  });

  test('words that expand at run time are marked', () => {
    const s = splitCommand('$CMD *.ts "$HOME" plain {a,b}');
    expect(s.commands[0]?.words.map((w) => [w.raw, w.expands])).toEqual([
      ['$CMD', true],
      ['*.ts', true],
      ['"$HOME"', true],
      ['plain', false],
      ['{a,b}', true],
    ]);
  });
});
