// Claude Code's settings files as config layers: precedence, trust gating, --setting-sources and errors.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addClaudeSettingsRules, approveRules, loadConfig, trustProject } from '../../src/config/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';

const tmp = useTmp();

function world() {
  const home = tmp();
  const repo = join(home, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  const json = (path: string, value: unknown) => write(path, `${JSON.stringify(value, null, 2)}\n`);
  return {
    home,
    repo,
    env: { HOME: home },
    configDir: join(home, '.config', 'moat'),
    user: (v: unknown) => json(join(home, '.claude', 'settings.json'), v),
    project: (v: unknown) => json(join(repo, '.claude', 'settings.json'), v),
    local: (v: unknown) => json(join(repo, '.claude', 'settings.local.json'), v),
    moatUser: (text: string) => write(join(home, '.config', 'moat', 'config.toml'), text),
  };
}

const hook = (command: string) => [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }];

describe('Claude Code settings files', () => {
  test('untrusted: a project restricts (deny, ask) but its grants (allow, folders, acceptEdits, env, hooks) are ignored and named', () => {
    const w = world();
    w.user({ model: 'user-claude-model', permissions: { deny: ['Read(~/.ssh/**)'] }, hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo user' }] }] } });
    w.project({
      permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(.env)'], ask: ['Bash(git push:*)'], defaultMode: 'acceptEdits', additionalDirectories: ['../other'] },
      env: { FROM_PROJECT: '1' },
      hooks: { PreToolUse: hook('./evil.sh') },
    });
    w.local({ permissions: { allow: ['Edit'] } });
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.config.permissions).toEqual({ allow: [], deny: ['Read(~/.ssh/**)', 'Read(.env)'], ask: ['Bash(git push:*)'] });
    expect(loaded.config.permissionMode).toBe('default');
    expect(loaded.config.addDirs).toEqual([]);
    expect(loaded.config.model).toBe('user-claude-model');
    expect(loaded.env).toEqual({});
    expect(Object.keys(loaded.hooks)).toEqual(['Stop']);
    expect(loaded.untrusted).toEqual([
      '.claude/settings.json: 1 allow rule, additional folders, acceptEdits mode, env, hooks',
      '.claude/settings.local.json: 1 allow rule',
    ]);
    // Where a rule came from: the file and the line it is written on.
    expect(loaded.rules.find((r) => r.rule === 'Read(.env)')?.source).toEqual({ kind: 'file', scope: 'project', path: join(w.repo, '.claude', 'settings.json'), line: 6 });
  });

  test('trusted: the same files grant, local over project over user; hooks from every file run', () => {
    const w = world();
    w.user({ permissions: { allow: ['Read'] }, hooks: { PreToolUse: hook('echo user') } });
    w.project({ permissions: { allow: ['Bash(npm test:*)'], defaultMode: 'acceptEdits', additionalDirectories: ['../other'] }, env: { A: 'project', B: 'project' }, hooks: { PreToolUse: hook('echo project') } });
    w.local({ permissions: { defaultMode: 'plan' }, env: { B: 'local' } });
    trustProject(w.repo, w.configDir);
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.config.permissions.allow).toEqual(['Read', 'Bash(npm test:*)']);
    expect(loaded.config.permissionMode).toBe('plan');
    expect(loaded.config.addDirs).toEqual([join(w.home, 'other')]);
    expect(loaded.env).toEqual({ A: 'project', B: 'local' });
    expect(loaded.hooks.PreToolUse?.map((g) => g.hooks[0]?.command)).toEqual(['echo user', 'echo project']);
    expect(loaded.hooks.PreToolUse?.[0]).toEqual({ matcher: 'Bash', hooks: [{ command: 'echo user', timeoutMs: 60_000, source: '~/.claude/settings.json' }] });
    expect(loaded.untrusted).toEqual([]);
  });

  test("a folder Claude Code's own record trusts (~/.claude.json hasTrustDialogAccepted) is trusted here; a parent's or another folder's trust is not", () => {
    const w = world();
    w.local({ permissions: { allow: ['Bash(npm test:*)'] }, env: { A: 'local' } });
    const claudeJson = join(w.home, '.claude.json');
    writeFileSync(claudeJson, JSON.stringify({ projects: { [w.home]: { hasTrustDialogAccepted: true }, [join(w.home, 'elsewhere')]: { hasTrustDialogAccepted: true } } }));
    expect(loadConfig({ cwd: w.repo, env: w.env }).untrusted).toEqual(['.claude/settings.local.json: 1 allow rule, env']);
    writeFileSync(claudeJson, JSON.stringify({ projects: { [w.repo]: { hasTrustDialogAccepted: true } } }));
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.untrusted).toEqual([]);
    expect(loaded.config.permissions.allow).toEqual(['Bash(npm test:*)']);
    expect(loaded.env).toEqual({ A: 'local' });
  });

  test("moat's own files win on conflict; a project never turns on bypassPermissions, trusted or not", () => {
    const w = world();
    w.project({ model: 'claude-project-model', permissions: { defaultMode: 'bypassPermissions' } });
    w.moatUser('model = "moat-user-model"\n');
    trustProject(w.repo, w.configDir);
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.config.model).toBe('moat-user-model');
    expect(loaded.config.permissionMode).toBe('default');
    expect(loaded.untrusted).toEqual(['.claude/settings.json: bypassPermissions']);
  });

  test('--setting-sources picks the files; an empty list reads none of them', () => {
    const w = world();
    w.user({ permissions: { deny: ['WebFetch'] } });
    w.project({ permissions: { deny: ['Bash'] } });
    expect(loadConfig({ cwd: w.repo, env: w.env, settingSources: ['project'] }).config.permissions.deny).toEqual(['Bash']);
    expect(loadConfig({ cwd: w.repo, env: w.env, settingSources: [] }).config.permissions.deny).toEqual([]);
    expect(loadConfig({ cwd: w.repo, env: w.env }).config.permissions.deny).toEqual(['WebFetch', 'Bash']);
  });

  test('[[hooks.<Event>]] in config.toml, flat or grouped, joins the same set', () => {
    const w = world();
    w.moatUser('[[hooks.PreToolUse]]\nmatcher = "Edit|Write"\ncommand = "./fmt.sh"\ntimeout = 5\n\n[[hooks.Stop]]\nhooks = [{ type = "command", command = "echo done" }]\n');
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.hooks).toEqual({
      PreToolUse: [{ matcher: 'Edit|Write', hooks: [{ command: './fmt.sh', timeoutMs: 5000, source: '~/.config/moat/config.toml' }] }],
      Stop: [{ hooks: [{ command: 'echo done', timeoutMs: 60_000, source: '~/.config/moat/config.toml' }] }],
    });
  });

  test('mistakes name the file, the line and the key', () => {
    const w = world();
    const error = (): string => {
      try {
        loadConfig({ cwd: w.repo, env: w.env });
      } catch (e) {
        if (e instanceof MoatError) return e.message;
        throw e;
      }
      return 'no error';
    };
    w.project({ model: 'x', permissions: { allow: 'Bash' } });
    expect(error()).toBe('.claude/settings.json:4: permissions.allow: Invalid input: expected array, received string');
    w.project({ hooks: { BeforeToolUse: [] } });
    expect(error()).toMatch(/^\.claude\/settings\.json:3: hooks\.BeforeToolUse: /);
    write(join(w.repo, '.claude', 'settings.json'), '{\n  "model": "x",\n  oops\n}\n');
    expect(error()).toMatch(/^\.claude\/settings\.json:\d+: not valid JSON: /);
  });
});

describe('"always" answers in Claude Code settings files', () => {
  test('rules are added to permissions.allow once, every other key kept; a file that is not a settings object is left alone', () => {
    const w = world();
    const file = join(w.repo, '.claude', 'settings.local.json');
    w.local({ model: 'claude-opus-4-5', permissions: { deny: ['Bash(rm:*)'], allow: ['Read'] } });
    addClaudeSettingsRules(file, 'allow', ['Edit(src/**)', 'Read']);
    addClaudeSettingsRules(file, 'allow', ['Edit(src/**)']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'claude-opus-4-5', permissions: { deny: ['Bash(rm:*)'], allow: ['Read', 'Edit(src/**)'] } });
    const fresh = join(w.repo, 'other', '.claude', 'settings.json');
    addClaudeSettingsRules(fresh, 'allow', ['WebFetch']);
    expect(JSON.parse(readFileSync(fresh, 'utf8'))).toEqual({ permissions: { allow: ['WebFetch'] } });
    writeFileSync(file, '[1, 2]');
    expect(() => addClaudeSettingsRules(file, 'allow', ['Read'])).toThrow(MoatError);
    expect(readFileSync(file, 'utf8')).toBe('[1, 2]');
  });

  test('an untrusted folder keeps the allow rules the user approved for it, and only those', () => {
    const w = world();
    w.local({ permissions: { allow: ['Edit(src/**)', 'Bash(curl:*)'] } });
    approveRules(w.repo, ['Edit(src/**)'], w.configDir);
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.config.permissions.allow).toEqual(['Edit(src/**)']);
    expect(loaded.untrusted).toEqual(['.claude/settings.local.json: 1 allow rule']);
  });
});
