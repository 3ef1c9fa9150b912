/**
 * What the OS sandbox refused a Bash command or a hook, said on stderr once
 * per refusal even in quiet output, with the setting that would allow it:
 * the run goes on (moat's choice is the safer one), but it is never silent.
 */
import type { SessionEvent } from '../protocol/index.ts';

/** The setting that grants what a refusal message names (`write to /x refused`, a connection not in the allow list). */
function howToAllow(message: string): string {
  if (/^write to /.test(message) || / is protected/.test(message)) return 'to allow it: --add-dir or [sandbox.filesystem] allow_write in ~/.config/moat/config.toml';
  if (/connection|host|network/i.test(message)) return 'to allow it: [sandbox.network] allow in ~/.config/moat/config.toml';
  return '';
}

export class SandboxRefusalLines {
  private readonly told = new Set<string>();

  /** The lines this event adds: none when it carries no refusal, or only ones already told. */
  of(e: SessionEvent): string[] {
    // A hook's refusal comes as a notice the session already says once.
    if (e.type === 'notice' && e.sandboxRefusal === true) return [`moat: ${e.message}`];
    if (e.type !== 'tool_finished' || e.display?.type !== 'command' || e.display.violations === undefined) return [];
    return e.display.violations.flatMap((v) => {
      const how = howToAllow(v);
      return this.once(v, `moat: the sandbox refused ${e.name}: ${v}${how === '' ? '' : `; ${how}`}`);
    });
  }

  private once(key: string, line: string): string[] {
    if (this.told.has(key)) return [];
    this.told.add(key);
    return [line];
  }
}
