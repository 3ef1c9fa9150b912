// `${VAR}` and `${VAR:-default}` in Claude Code's MCP config values, expanded from the environment.

export class MissingVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} is not set (give a default with \${${variable}:-value})`);
    this.name = 'MissingVariableError';
  }
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Replaces every reference; an unset variable without a default throws MissingVariableError. */
export function expandVars(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(REFERENCE, (_all, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    throw new MissingVariableError(name);
  });
}

export function expandMap(map: Record<string, string>, env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, expandVars(v, env)]));
}
