// The trust question at start for a project whose settings would grant something, and /hooks.
import { afterEach, describe, expect, test } from 'bun:test';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

afterEach(unmountAll);

describe('project trust in the TUI', () => {
  test('a project whose settings would grant asks once at start; choosing "Trust" trusts it', async () => {
    const h = start((c) => (c.grants = ['.claude/settings.json: 2 allow rules, hooks']));
    await h.until('Trust this folder?');
    expect(h.frame()).toContain('.claude/settings.json: 2 allow rules, hooks');
    expect(h.frame()).toContain('Not now');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.trusted, 'trusted');
    await h.until('Trusted this folder');
  });

  test('"Not now" leaves it untrusted; nothing is asked when the settings grant nothing', async () => {
    const h = start((c) => (c.grants = ['.moat/config.toml: acceptEdits mode']));
    await h.until('Trust this folder?');
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await h.until('Ask moat');
    expect(h.controller.trusted).toBe(false);
    const quiet = start();
    await quiet.until('Ask moat');
    expect(quiet.frame()).not.toContain('Trust this folder?');
  });

  test('/hooks lists the hooks by event, and what waits for trust', async () => {
    const h = start((c) => {
      c.hookList = [{ event: 'PreToolUse', matcher: 'Bash', command: './check.sh', source: '.claude/settings.json', timeoutMs: 60_000 }];
      c.trusted = false;
    });
    await h.until('Ask moat');
    await h.type('/hooks');
    await h.press(KEYS.enter);
    await h.until('PreToolUse(Bash)  ./check.sh');
    expect(h.frame()).toContain('.claude/settings.json · 60 s');
  });
});
