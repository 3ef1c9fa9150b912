// find, sed and awk run commands and write files through their arguments: prefix rules do not cover that, deny rules see it.
import { describe, expect, test } from 'bun:test';
import { argumentEffects } from '../../../src/tools/permissions/argument-commands.ts';
import { decidePermission, ruleForCall } from '../../../src/tools/permissions/index.ts';
import { readCommandLine } from '../../../src/tools/permissions/shell-syntax.ts';
import { bash, HOME, policy, PROJECT, testDeniedByRm, testOpaqueAsks } from './helpers.ts';

const kind = (command: string, allow: string[], deny: string[] = []) => decidePermission(bash(command), policy({ allow, deny })).kind;

/** The rule "allow always" stores: for these commands the exact one. */
const exactRule = (command: string) => ruleForCall(bash(command), PROJECT, HOME);

describe('a prefix or wildcard rule does not cover find, sed or awk running commands or writing files', () => {
  const cases: [string, string][] = [
    // find's actions that run a command, delete or write.
    ["find . -exec sh -c 'rm x' \\;", 'Bash(find:*)'],
    ['find . -name "*.o" -exec rm {} \\;', 'Bash(find . -name:*)'],
    ['find . -execdir rm {} +', 'Bash(find:*)'],
    ['find . -ok rm {} \\;', 'Bash(find *)'],
    ['find . -okdir rm {} \\;', 'Bash(find:*)'],
    ['find . -delete', 'Bash(find:*)'],
    ["find . -name '*.tmp' '-delete'", 'Bash(find:*)'],
    ['find . -type f -fprint out.txt', 'Bash(find:*)'],
    ['find . -fls out.txt', 'Bash(find:*)'],
    ['busybox find . -delete', 'Bash(busybox find:*)'],
    ['/usr/bin/find . -delete', 'Bash(/usr/bin/find:*)'],
    // An action only known when the command runs (a file named `-delete` matches `*`).
    ['find . $ACTION', 'Bash(find:*)'],
    ['find *', 'Bash(find:*)'],
    ['find . -name $P', 'Bash(find:*)'],
    // sed's e command and flag, w and W, in-place edits.
    ["sed 's/x/y/e' f", 'Bash(sed:*)'],
    ['sed "s/x/y/e" f', 'Bash(sed:*)'],
    ['sed s/x/y/e f', 'Bash(sed:*)'],
    ["sed 's/x/y/ e' f", 'Bash(sed:*)'],
    ["sed -e '1e id' f", 'Bash(sed:*)'],
    ["sed --expression='1e id' f", 'Bash(sed:*)'],
    ["sed -n -e p -e '$e id' f", 'Bash(sed -n:*)'],
    ["sed 's/a/b/;e' f", 'Bash(sed:*)'],
    ["sed ':a;e id' f", 'Bash(sed:*)'],
    ["sed ':a e id' f", 'Bash(sed:*)'],
    ["sed '/[/]/e id' f", 'Bash(sed:*)'],
    ["sed 's/[/]/x/e' f", 'Bash(sed:*)'],
    ["sed '1{e id\n}' f", 'Bash(sed:*)'],
    ["sed 'w /etc/x' f", 'Bash(sed:*)'],
    ["sed -n 'W out.txt' f", 'Bash(sed:*)'],
    ["sed 's/a/b/w out.txt' f", 'Bash(sed:*)'],
    ['sed --in-place=.bak s/a/b/ f', 'Bash(sed:*)'],
    ['sed -i s/a/b/ f', 'Bash(sed:*)'],
    ['sed -i.bak s/a/b/ f', 'Bash(sed *)'],
    ['sed -ni 1p f', 'Bash(sed:*)'],
    ['sed -ie s/a/b/ f', 'Bash(sed:*)'],
    ['sed s/a/b/ f -i', 'Bash(sed s/a/b/:*)'],
    ['sed --in s/a/b/ f', 'Bash(sed:*)'],
    ['gsed -i s/a/b/ f', 'Bash(gsed:*)'],
    ['busybox sed -i s/a/b/ f', 'Bash(busybox:*)'],
    // A script file cannot be seen; a script built at run time cannot be read.
    ['sed -f script.sed f', 'Bash(sed:*)'],
    ['sed --file=script.sed f', 'Bash(sed:*)'],
    ['sed "s/a/$B/" f', 'Bash(sed:*)'],
    // A file named `-e1e sh x.txt` would be handed to sed as an option.
    ['sed -n 1p *.txt', 'Bash(sed:*)'],
    // awk's system(), pipes to and from commands, output to files.
    ["awk 'BEGIN{system(\"id\")}'", 'Bash(awk:*)'],
    ["awk 'BEGIN{system(\"id\")}'", 'Bash(awk *)'],
    ['awk "BEGIN{system(\\"id\\")}"', 'Bash(awk:*)'],
    ["awk '{ x = $1 / 2; system(\"id\"); y = $2 / 3 }' f", 'Bash(awk:*)'],
    ["awk 'BEGIN { c = \"id\"; system(c) }'", 'Bash(awk:*)'],
    ["awk '{print | \"sh\"}' f", 'Bash(awk:*)'],
    ["awk '{print $1 | \"sort\"}' f", 'Bash(awk:*)'],
    ["awk 'BEGIN { while ((\"date\" | getline d) > 0) print d }'", 'Bash(awk:*)'],
    ["gawk 'BEGIN { \"id\" |& getline x }'", 'Bash(gawk:*)'],
    ["awk '{print > \"/tmp/x\"}' f", 'Bash(awk:*)'],
    ["awk '{print >> \"log\"}' f", 'Bash(awk:*)'],
    ["awk '{print $1 > $2}' f", 'Bash(awk:*)'],
    ["mawk '{printf \"%s\\n\", $1 > \"o.txt\"}' f", 'Bash(mawk:*)'],
    ["nawk 'BEGIN{system(\"id\")}'", 'Bash(nawk:*)'],
    ["gawk 'BEGIN{system(\"id\")}'", 'Bash(gawk:*)'],
    ["busybox awk 'BEGIN{system(\"id\")}'", 'Bash(busybox awk:*)'],
    ["busybox awk 'BEGIN{system(\"id\")}'", 'Bash(busybox:*)'],
    ["/usr/bin/awk 'BEGIN{system(\"id\")}'", 'Bash(/usr/bin/awk:*)'],
    // Programs that cannot be seen or read with confidence.
    ['awk -f prog.awk f', 'Bash(awk:*)'],
    ['awk --file=prog.awk f', 'Bash(awk:*)'],
    ["gawk '@load \"x\"; {print}' f", 'Bash(gawk:*)'],
    ['gawk -l ext f', 'Bash(gawk:*)'],
    ['awk -W exec prog.awk f', 'Bash(awk:*)'],
    ['awk "{print $X}" f', 'Bash(awk:*)'],
    ["awk '/[/]/ { system(\"id\") }' f", 'Bash(awk:*)'],
    // After `if (…)` a `/` starts a regular expression: reading it as division would hide the call between the quotes.
    ["awk '{ if (1) /\"/ ; system(\"id\"); if (0) /\"/ }' f", 'Bash(awk:*)'],
  ];
  for (const [command, rule] of cases) {
    test(`${JSON.stringify(command)} is not covered by ${rule}`, () => {
      expect(kind(command, [rule])).toBe('ask');
    });
  }

  test('an exact rule naming the whole command covers it', () => {
    for (const command of ['sed -i s/a/b/ f', 'find . -delete', "awk 'BEGIN{system(\"id\")}'", "sed -e '1e id' f", "find . -execdir rm {} +"]) {
      expect(kind(command, [exactRule(command)])).toBe('allow');
    }
    expect(kind('sed -i s/a/b/ f', ['Bash(sed -i s/a/b/ f)'])).toBe('allow');
  });

  test('"allow always" offers the exact command, not a prefix', () => {
    expect(exactRule('sed -i s/a/b/ f')).toBe('Bash(sed -i s/a/b/ f)');
    expect(exactRule("awk '{print > \"out\"}' f")).toBe("Bash(awk '{print > \"out\"}' f)");
    const decision = decidePermission(bash("sed 's/x/y/e' f"), policy({ allow: ['Bash(sed:*)'] }));
    expect(decision).toMatchObject({ kind: 'ask', rules: ["Bash(sed 's/x/y/e' f)"], broaderRules: [] });
  });

  test('each part of a chain is judged on its own', () => {
    expect(kind('sed -n 1p f && sed -i s/a/b/ f', ['Bash(sed:*)'])).toBe('ask');
    expect(kind('sed -n 1p f && sed -i s/a/b/ f', ['Bash(sed:*)', 'Bash(sed -i s/a/b/ f)'])).toBe('allow');
  });

  test('under the OS sandbox, a prefix rule no longer grants workspace-write to an in-place edit', () => {
    const grant = (command: string) => {
      const d = decidePermission(bash(command), { ...policy({ allow: ['Bash(sed:*)'] }), osSandbox: true });
      return d.kind === 'allow' ? d.sandbox : d.kind;
    };
    expect(grant('sed -n 1p f')).toBe('workspace-write');
    expect(grant('sed -i s/a/b/ f')).toBe('read-only');
  });
});

describe('plain uses of find, sed and awk stay covered', () => {
  const cases: [string, string][] = [
    ["find . -name '*.ts'", 'Bash(find:*)'],
    ['find . -name *.ts', 'Bash(find:*)'],
    ['find src -type f -name "$P"', 'Bash(find:*)'],
    ["find . -maxdepth 2 -type d -name node_modules -prune -o -name '*.json' -print", 'Bash(find:*)'],
    ['find . -newermt 2024-01-01 -print0', 'Bash(find:*)'],
    ['find {src,test} -name x', 'Bash(find:*)'],
    ['find src/*.d -newer x', 'Bash(find:*)'],
    ["sed -n '1,5p' f", 'Bash(sed:*)'],
    ["sed 's/a/b/g' f", 'Bash(sed:*)'],
    ['sed "s/foo/bar/" f', 'Bash(sed:*)'],
    ['sed s/a/b/ f', 'Bash(sed:*)'],
    ["sed 's/e/w/g;/e/d' f", 'Bash(sed:*)'],
    ["sed -E 's/([0-9]+)/<\\1>/g' f", 'Bash(sed:*)'],
    ["sed -n '/start/,/end/p' f", 'Bash(sed:*)'],
    ["sed '/^#/d;s/[/]/x/' f", 'Bash(sed:*)'],
    ["sed ':a;N;$!ba;s/\\n/ /g' f", 'Bash(sed:*)'],
    ["sed '$a footer; e id' f", 'Bash(sed:*)'],
    ["sed '1i\\\nw header' f", 'Bash(sed:*)'],
    ["sed 's/a/b/w /dev/stdout' f", 'Bash(sed:*)'],
    ["sed 'y/abc/xyz/' f", 'Bash(sed:*)'],
    ["sed '/x/{p;q}' f", 'Bash(sed:*)'],
    ["sed -n '$=' f", 'Bash(sed:*)'],
    ["sed 's/[[:space:]]*$//' f", 'Bash(sed:*)'],
    ["sed 's#/usr#/opt#g;s/x/y/2g;s/x/y/I' f", 'Bash(sed:*)'],
    ["sed '0,/re/s//X/;1~2d;/x/I,+3p' f", 'Bash(sed:*)'],
    ["sed 'r other.txt' f", 'Bash(sed:*)'],
    ["sed -e 's/a/b/' -e 's/c/d/' f", 'Bash(sed:*)'],
    ['sed -n 1p -- *.txt', 'Bash(sed:*)'],
    ['sed -n 1p src/*.txt', 'Bash(sed:*)'],
    ['sed = f', 'Bash(sed:*)'],
    ["awk '{print $1}' f", 'Bash(awk:*)'],
    ["awk '{print $1}' f", 'Bash(awk *)'],
    ["awk -F: '$3 > 100 {print $1}' /etc/passwd", 'Bash(awk:*)'],
    ["awk '{if ($1 > 0) print $1}' f", 'Bash(awk:*)'],
    ["awk '/foo|bar/ {print}' f", 'Bash(awk:*)'],
    ["awk '$1 || $2' f", 'Bash(awk:*)'],
    ["awk '{sum += $2} END {print sum / NR}' f", 'Bash(awk:*)'],
    ["awk 'BEGIN { x = 4 / 2 / 1; print x }'", 'Bash(awk:*)'],
    ["awk '{ if (NF) print ($1 + $2) / 2 }' f", 'Bash(awk:*)'],
    ["awk '{print > \"/dev/stderr\"}' f", 'Bash(awk:*)'],
    ["awk 'BEGIN { printf(\"%d\\n\", 3) > \"/dev/stderr\" }'", 'Bash(awk:*)'],
    ["awk '{print (a > b)}' f", 'Bash(awk:*)'],
    ["awk -v OFS=, '{ $1 = $1; print }' f", 'Bash(awk:*)'],
    ["awk '{ gsub(/a|b/, \"x\"); print }' f", 'Bash(awk:*)'],
    ["awk 'BEGIN { getline line < \"f\"; print line }'", 'Bash(awk:*)'],
    ["awk '{print \"system | sort > out\"}' f", 'Bash(awk:*)'],
    ["awk '# system(\"id\")\n{print}' f", 'Bash(awk:*)'],
    ["awk '{print $1}' *.csv", 'Bash(awk:*)'],
    ["gawk '{print $1}' f", 'Bash(gawk:*)'],
    ["busybox awk '{print $1}' f", 'Bash(busybox awk:*)'],
  ];
  for (const [command, rule] of cases) {
    test(`${JSON.stringify(command)} is covered by ${rule}`, () => {
      expect(kind(command, [rule])).toBe('allow');
    });
  }

  test('"allow always" still offers a prefix for them', () => {
    expect(exactRule("awk '{print $1}' f")).toBe('Bash(awk:*)');
    expect(exactRule("sed -n '1,5p' f")).toBe('Bash(sed:*)');
  });
});

describe('deny rules see the commands find, sed and awk run', () => {
  const deny = ['Bash(rm:*)'];
  const denied = [
    'find . -name "*.o" -execdir rm {} +',
    'find . -ok rm {} \\;',
    "find . -exec sh -c 'rm x' \\;",
    "sed '1e rm -rf x' f",
    "sed -n -e '/x/e rm -rf x' f",
    "sed 's/.*/rm -rf x/e' f",
    "sudo sed '1e rm -rf x' f",
    "awk 'BEGIN{system(\"rm -rf x\")}'",
    "gawk 'BEGIN { system(\"rm -rf \" $1) }'",
    "busybox awk 'BEGIN{system(\"rm -rf x\")}'",
    "xargs awk 'BEGIN{system(\"rm -rf x\")}'",
    "awk 'BEGIN { c = \"rm -rf x\"; system(c) }'",
    "awk 'BEGIN { system(\"\\162m -rf x\") }'",
    "awk '{print \"x\" | \"rm -rf x\"}' f",
    "awk 'BEGIN { print \"rm -rf x\" | \"sh\" }'",
    "awk 'BEGIN { \"rm -rf x\" | getline }'",
    "awk 'BEGIN { system(\"sh -c \\\"rm -rf x\\\"\") }'",
  ];
  testDeniedByRm(denied);

  // What they run is built at run time, or reads an input nobody can see: deny rules cannot vouch for it.
  const opaque = [
    "sed 's/x/y/e' f",
    "sed 's/a/b/;e' f",
    'sed "s/a/$B/" f',
    "awk '{system($0)}' f",
    "awk '{print | \"sh\"}' f",
    "awk 'BEGIN{system(\"bash\")}'",
    "awk 'BEGIN{\"python3\" | getline}'",
    "gawk '@include \"x\"'",
    "awk '/[/]/' f",
    'awk "{print $X}" f',
    'find . $ACTION',
    "awk -f - f <<'EOF'\nBEGIN { system(\"rm -rf x\") }\nEOF",
    'sed -f /dev/stdin f < script.sed',
  ];
  testOpaqueAsks(opaque);

  // Commands spelled out in full, and programs in files (read as written, like `bash x.sh`).
  const readable = ["awk '{print | \"sort\"}' f", "sed '1e date' f", "awk 'BEGIN{system(\"date\")}'", 'sed -i s/a/b/ f', 'awk -f prog.awk f', 'sed -f s.sed f', 'find . -delete', "awk '{print $1}' f"];
  for (const command of readable) {
    test(`${JSON.stringify(command)} is allowed under a bare Bash rule with deny rules`, () => {
      expect(kind(command, ['Bash'], deny)).toBe('allow');
    });
  }
});

describe('argumentEffects', () => {
  const effects = (line: string) => argumentEffects(readCommandLine(line).commands[0]?.words ?? []);

  test('reads only find, sed and awk', () => {
    expect(effects('grep -e x f')).toBeNull();
    expect(effects('busybox ls')).toBeNull();
  });

  test('names the commands a program spells out', () => {
    expect(effects("sed -e p -e '1e echo hi; rm x' f")?.commands).toEqual(['echo hi; rm x']);
    expect(effects("awk 'BEGIN { system(\"a\"); print | \"b\"; \"c\" | getline }'")).toMatchObject({ commands: ['a', 'b', 'c'], hidden: false });
    expect(effects("awk 'BEGIN { \"x\" \"c\" | getline }'")).toMatchObject({ runs: true, hidden: true, commands: [], strings: ['x', 'c'] });
  });

  test('tells runs from writes', () => {
    expect(effects('find . -delete')).toMatchObject({ runs: false, writes: true });
    expect(effects('find . -exec ls {} +')).toMatchObject({ runs: true, writes: false, hidden: false });
    expect(effects("sed -n 'w x' f")).toMatchObject({ runs: false, writes: true });
    expect(effects("awk '{print > \"x\"}'")).toMatchObject({ runs: false, writes: true });
  });
});
