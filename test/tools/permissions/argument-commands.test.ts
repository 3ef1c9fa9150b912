// find, sed and awk run commands and write files through their arguments: prefix rules do not cover that, deny rules see it.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { argumentEffects } from '../../../src/tools/permissions/argument-commands.ts';
import { ruleForCall, type PermissionCall } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { readCommandLine } from '../../../src/tools/permissions/shell-syntax.ts';
import { tempDir } from '../../support/temp.ts';
import { bash, HOME, policy, PROJECT, testDeniedByRm, testOpaqueAsks } from './helpers.ts';

const kind = (command: string, allow: string[], deny: string[] = []) => decideLoaded(bash(command), policy({ allow, deny })).kind;

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
    const decision = decideLoaded(bash("sed 's/x/y/e' f"), policy({ allow: ['Bash(sed:*)'] }));
    expect(decision).toMatchObject({ kind: 'ask', rules: ["Bash(sed 's/x/y/e' f)"], broaderRules: [] });
  });

  test('each part of a chain is judged on its own', () => {
    expect(kind('sed -n 1p f && sed -i s/a/b/ f', ['Bash(sed:*)'])).toBe('ask');
    expect(kind('sed -n 1p f && sed -i s/a/b/ f', ['Bash(sed:*)', 'Bash(sed -i s/a/b/ f)'])).toBe('allow');
  });

  test('under the OS sandbox, a prefix rule no longer grants workspace-write to an in-place edit', () => {
    const grant = (command: string) => {
      const d = decideLoaded(bash(command), { ...policy({ allow: ['Bash(sed:*)'] }), osSandbox: true });
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

describe('Edit deny rules see the files find, sed and awk write through their arguments', () => {
  const deny = ['Edit(.env)'];
  const writesEnv = [
    "sed -i 's/a/b/' .env",
    'sed -i.bak s/a/b/ .env',
    'sed --in-place=.orig s/a/b/ .env',
    'sed -i -e s/a/b/ in.txt .env',
    'sed s/a/b/ .env -i',
    "sed -n 'w .env' in.txt",
    "sed 's/a/b/w .env' in.txt",
    "sed -n '/x/W .env' in.txt",
    'sed -i s/a/b/ config/.env',
    'sed -i s/a/b/ config/.ENV',
    "sed -i'*.orig' s/a/b/ .env",
    "sed -i'.e*' s/a/b/ nv",
    `awk '{print > ".env"}' in.txt`,
    `awk '{print >> ".env"}' in.txt`,
    `awk '{printf "%s\\n", $1 > ".env"}' in.txt`,
    'find . -fprint .env',
    'find . -name x -fprint0 .env',
    "find . -fprintf .env '%p'",
    'find . -fls .env',
    'find .env -delete',
    'find -L -- .env -name x -delete',
    'busybox sed -i s/a/b/ .env',
    'gawk \'{print > ".env"}\' in.txt',
    // Wherever the command is found: after a wrapper, in a script handed to a shell, in find -exec, past a pipe.
    'sudo sed -i s/a/b/ .env',
    'cat list | xargs sed -i s/a/b/ .env',
    "bash -c 'sed -i s/a/b/ .env'",
    "sh <<'EOF'\nsed -n 'w .env' in.txt\nEOF",
    'find . -exec sed -i s/a/b/ .env \\;',
    'echo $(sed -i s/a/b/ .env)',
    "git status && awk '{print > \".env\"}' in.txt",
  ];
  for (const command of writesEnv) {
    test(`${JSON.stringify(command)} is denied by Edit(.env), even under a rule that allows it`, () => {
      for (const allow of [['Bash'], [exactRule(command)]]) {
        expect(decideLoaded(bash(command), policy({ allow, deny }))).toEqual({ kind: 'deny', reason: 'denied by the rule "Edit(.env)"', rule: 'Edit(.env)' });
      }
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'], deny, mode: 'bypassPermissions' })).kind).toBe('deny');
      expect(decideLoaded(bash(command), { ...policy({ allow: ['Bash'], deny }), osSandbox: true }).kind).toBe('deny');
    });
  }

  // The same commands writing another file; reading .env is no edit of it.
  const writesOther = [
    "sed -i 's/a/b/' out.txt",
    'sed -i.bak s/a/b/ out.txt',
    "sed -n 'w out.txt' in.txt",
    "sed 's/a/b/w out.txt' in.txt",
    "sed 's/a/b/' .env",
    "sed -n 'w out.txt' .env",
    `awk '{print > "out.txt"}' in.txt`,
    `awk '{print >> "out.txt"}' .env`,
    'find . -fprint out.txt',
    'find out.txt -delete',
    "find . -name '.env' -print",
    // Globs that can never name `.env`: a glob stays within one name.
    'sed -i s/a/b/ src/*.ts',
    'sed -i s/a/b/ *.txt',
  ];
  for (const command of writesOther) {
    test(`${JSON.stringify(command)} is not denied by Edit(.env)`, () => {
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'], deny })).kind).toBe('allow');
      expect(decideLoaded(bash(command), policy({ allow: [exactRule(command)], deny })).kind).toBe('allow');
    });
  }

  // Files known only when the command runs: the rule cannot vouch for them, so it holds even under an exact allow rule.
  const hidden = [
    'sed -i s/a/b/ *',
    'sed -i s/a/b/ "$F"',
    'sed -i s/a/b/ $F',
    'sed -i s/a/b/ ~/x',
    'sed -i s/a/b/ .e*',
    'sed -i s/a/b/ config/{a,.env}',
    'sed -i s/a/b/ {a,b/.env}',
    'sed -i"$S" s/a/b/ f',
    `awk '{print > f}' in.txt`,
    `awk '{print > $2}' in.txt`,
    `awk '{print > "out" NR}' in.txt`,
    `awk '{print > ("o" ".env")}' in.txt`,
    'find "$D" -delete',
    'find . -fprint "$OUT"',
    'find -files0-from list -delete',
    // `-delete` removes what it finds under its starting points: `src/*` may be `src/.env`.
    'find src/* -name x -delete',
  ];
  for (const command of hidden) {
    test(`${JSON.stringify(command)} is not allowed when an Edit deny rule is in force`, () => {
      expect(decideLoaded(bash(command), policy({ allow: [exactRule(command)], deny })).kind).toBe('deny');
      expect(decideLoaded(bash(command), policy({ allow: ['Bash'], deny })).kind).toBe('deny');
      // Without a write deny rule, the exact rule still allows it.
      expect(decideLoaded(bash(command), policy({ allow: [exactRule(command)], deny: ['Read(.env)', 'Bash(rm:*)'] })).kind).toBe('allow');
    });
  }

  test('a rule other than a plain name cannot rule out a glob', () => {
    expect(kind('sed -i s/a/b/ src/*.ts', ['Bash'], ['Edit(src/**)'])).toBe('deny');
    expect(kind('sed -i s/a/b/ src/*.ts', ['Bash'], ['Edit(//etc/**)'])).toBe('deny');
    expect(kind('sed -i s/a/b/ src/*.ts', ['Bash'], ['Edit(*.ts)'])).toBe('deny');
    expect(kind('sed -i s/a/b/ src/*.ts', ['Bash'], ['Edit(SRC)'])).toBe('deny');
    expect(kind('sed -i s/a/b/ src/*.ts', ['Bash'], ['Edit(a.ts)'])).toBe('deny');
    expect(kind('sed -i s/a/b/ src/*.ts', ['Bash'], ['Edit(a.js)'])).toBe('allow');
  });

  test('the standard streams and /dev/null are not files', () => {
    const devDeny = ['Edit(//dev/**)'];
    for (const command of [
      "sed -n 'w /dev/stdout' in.txt",
      "sed 's/a/b/w /dev/stderr' in.txt",
      'sed -i s/a/b/ - < in.txt',
      `awk '{print > "/dev/stderr"}' in.txt`,
      `awk '{print > "/dev/null"}' in.txt`,
      `awk '{print >> "/dev/stdout"}' in.txt`,
      'find . -fprint /dev/null',
      'find . -fprint /dev/stdout',
    ]) {
      expect(decideLoaded(bash(command), policy({ allow: [exactRule(command)], deny: devDeny })).kind).toBe('allow');
    }
    // Another device is a file like any other.
    expect(kind("sed -n 'w /dev/sda' in.txt", ['Bash'], devDeny)).toBe('deny');
  });

  test('relative files resolve from the folder the command runs in', () => {
    const inSub = (command: string): PermissionCall => {
      const call = bash(command);
      return { ...call, intent: { ...call.intent, cwd: `${PROJECT}/sub` } };
    };
    const rooted = policy({ allow: ['Bash'], deny: ['Edit(/.env)'] });
    expect(decideLoaded(inSub('sed -i s/a/b/ ../.env'), rooted)).toMatchObject({ kind: 'deny', rule: 'Edit(/.env)' });
    expect(decideLoaded(inSub("awk '{print > \"../.env\"}' in.txt"), rooted).kind).toBe('deny');
    expect(decideLoaded(inSub('find ../.env -delete'), rooted).kind).toBe('deny');
    // From the sub-folder, `.env` is sub/.env, which a rule anchored at the root does not name; from the root, `../.env` is outside it.
    expect(decideLoaded(inSub('sed -i s/a/b/ .env'), rooted).kind).toBe('allow');
    expect(decideLoaded(bash('sed -i s/a/b/ ../.env'), rooted).kind).toBe('allow');
    expect(decideLoaded(bash('sed -i s/a/b/ .env'), rooted).kind).toBe('deny');
    // A glob resolved from the folder the command runs in.
    expect(decideLoaded(inSub('sed -i s/a/b/ *.txt'), policy({ allow: ['Bash'], deny: ['Edit(sub)'] })).kind).toBe('deny');
    expect(decideLoaded(inSub('sed -i s/a/b/ *.txt'), policy({ allow: ['Bash'], deny: ['Edit(lib)'] })).kind).toBe('allow');
  });

  test('ask rules for Edit see them too', () => {
    expect(decideLoaded(bash('sed -i s/a/b/ .env'), policy({ allow: ['Bash'], ask: ['Edit(.env)'] })).kind).toBe('ask');
  });
});

describe('argumentEffects names the files written', () => {
  const effects = (line: string) => argumentEffects(readCommandLine(line).commands[0]?.words ?? []);
  const files = (line: string) => effects(line)?.writeFiles;

  test('sed -i writes every input file, and keeps copies with a suffix', () => {
    expect(files('sed -i -e s/a/b/ f1 f2')).toEqual(['f1', 'f2']);
    expect(files('sed -n -i 1p f1 -- -f2')).toEqual(['f1', '-f2']);
    expect(files('sed -i.bak s/a/b/ f1 d/f2')).toEqual(['f1', 'f1.bak', 'd/f2', 'd/f2.bak']);
    expect(files("sed -i'old/*.orig' s/a/b/ d/f")).toEqual(['d/f', 'old/d/f.orig']);
    expect(files('sed --in-place=~ -f s.sed f')).toEqual(['f', 'f~']);
    expect(files('sed -ie s/a/b/ f')).toEqual(['f', 'fe']);
    expect(files('sed -i s/a/b/')).toEqual([]);
    expect(files('sed s/a/b/ f1 f2')).toEqual([]);
  });

  test("sed's w and W commands and the w flag", () => {
    expect(files("sed -e 's/a/b/w one' -e '2w two' -e '/x/W three' f")).toEqual(['one', 'two', 'three']);
    expect(files("sed -n 'w ~/x' f")).toEqual(['~/x']);
    expect(files("sed 's/a/b/gw /dev/stdout' f")).toEqual([]);
    expect(effects('sed -i s/a/b/ f *.txt')).toMatchObject({ writeFiles: ['f'], writeShapes: ['*.txt'] });
  });

  test("awk's output to files", () => {
    expect(files(`awk '{print > "a"; print $1 >> "b"; printf("%s", $2) > "c"}' f`)).toEqual(['a', 'b', 'c']);
    expect(files(`awk '{print "\\056env" > "\\056env"}' f`)).toEqual(['.env']);
    expect(effects(`awk '{print > $1 ".txt"}' f`)).toMatchObject({ writes: true, writeFiles: [], writeShapes: null });
    expect(effects(`awk '{print $1 > 100}' f`)).toMatchObject({ writeShapes: null });
    expect(effects(`awk '$1 > 100 {print $1}' f`)).toMatchObject({ writes: false, writeFiles: [], writeShapes: [] });
    expect(effects(`awk '{print | "cat > x"}' f`)).toMatchObject({ writeFiles: [], writeShapes: [], commands: ['cat > x'] });
  });

  test("find's file actions and -delete", () => {
    expect(files("find . -fprint a -fprint0 b -fprintf c '%p' -fls d")).toEqual(['a', 'b', 'c', 'd']);
    expect(files('find a b -name x -delete')).toEqual(['a', 'b']);
    expect(files('find -H -O2 -D exec x -delete')).toEqual(['x']);
    expect(files('find -delete')).toEqual(['.']);
    expect(files('find ! -name x -delete')).toEqual(['.']);
    expect(files('find . -exec rm {} +')).toEqual([]);
    expect(effects('find src/* -delete')).toMatchObject({ writeFiles: [], writeShapes: ['src/*'] });
  });
});

/** Every file under `dir`, relative to it, with its content. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (at: string): void => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

describe('the files named are those GNU sed, awk and find really write', () => {
  const cases = [
    "sed 's/a/b/w .env' in.txt",
    "sed -n 'w .env' in.txt",
    "sed -n '$W .env' in.txt",
    'sed -i -e s/a/b/ f1 f2',
    'sed -n -i 2p f1 sub/f3',
    'sed -i.bak s/a/b/ f1',
    "sed -i'bak/*.old' s/a/b/ f1",
    "sed -i'*.old' s/a/b/ sub/f3",
    "sed --in-place='old_*' s/a/b/ f1",
    'sed s/a/b/ f1 -i',
    'sed -ie s/a/b/ f1',
    "sed -n 'w /dev/stdout' in.txt",
    `awk '{print > ".env"}' in.txt`,
    `awk '{printf "%s\\n", $0 >> "log"; print > "/dev/stdout"}' in.txt`,
    'find . -maxdepth 0 -fprint .env',
    "find -maxdepth 0 -fprintf out.txt '%p'",
    'find -name nothing -fls out.txt',
    'find sub -name f3 -delete',
    'find -L -- sub -name f3 -delete',
  ];
  const tools = ['sed', 'awk', 'find', 'bash'].every((t) => Bun.which(t) !== null);
  for (const command of cases) {
    test.skipIf(!tools)(JSON.stringify(command), () => {
      const dir = tempDir('argument-writes-');
      mkdirSync(join(dir, 'sub'));
      mkdirSync(join(dir, 'bak'));
      for (const f of ['in.txt', 'f1', 'f2', 'sub/f3']) writeFileSync(join(dir, f), 'a\n');
      const before = snapshot(dir);
      const run = Bun.spawnSync(['bash', '-c', command], { cwd: dir, stdout: 'ignore', stderr: 'pipe' });
      expect(run.stderr.toString()).toBe('');
      const after = snapshot(dir);
      const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
      const named = (effects(command)?.writeFiles ?? []).map((f) => relative(dir, resolve(dir, f)));
      const under = (file: string, path: string) => path === '' || file === path || file.startsWith(`${path}/`);
      // Every file written is one named (or under a starting point of -delete), and every one named was written.
      expect(changed.filter((f) => !named.some((n) => under(f, n)))).toEqual([]);
      expect(named.filter((n) => !changed.some((f) => under(f, n)))).toEqual([]);
    });
  }

  function effects(command: string) {
    return argumentEffects(readCommandLine(command).commands[0]?.words ?? []);
  }
});
