/**
 * Writes the module scripts/build.ts puts in place of bundled-parse.ts: the
 * bundled skills and agents as literals, except their bodies (skill
 * instructions, agent prompts, most of the bytes), which go to a file of
 * their own, embedded and read on first use. A run needs the names and
 * descriptions before its first request, a body only when that skill or
 * agent is invoked, so the bodies stay out of the code loaded at start-up;
 * reading them synchronously keeps every caller's `skill.body` as it is.
 */
import { parseBundled } from './bundled-parse.ts';

/** The fields left out of the literals, read through a getter instead. */
const LAZY = { skills: 'body', agents: 'systemPrompt' } as const;

/**
 * `source`: the module, importing `bodiesSpecifier` as a file (`with { type:
 * 'file' }`) that must hold `bodies`, a JSON array of every body in order.
 */
export function bundledModule(bodiesSpecifier: string): { source: string; bodies: string } {
  const parsed = parseBundled();
  const bodies: string[] = [];
  const literal = (item: object, lazy: string): string => {
    const fields = Object.entries(item).map(([key, value]) => {
      if (key !== lazy) return `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
      bodies.push(String(value));
      // An enumerable getter: spreading, JSON.stringify and toEqual see the body as a plain field would show it.
      return `get ${key}() { return body(${bodies.length - 1}); }`;
    });
    return `{ ${fields.join(', ')} }`;
  };
  const skills = parsed.skills.map((s) => literal(s, LAZY.skills));
  const agents = parsed.agents.map((a) => literal(a, LAZY.agents));
  const source = [
    "import { readFileSync } from 'node:fs';",
    `import bodiesFile from ${JSON.stringify(bodiesSpecifier)} with { type: 'file' };`,
    'let bodies;',
    "const body = (i) => (bodies ??= JSON.parse(readFileSync(bodiesFile, 'utf8')))[i];",
    `export function parseBundled() { return { skills: [${skills.join(', ')}], agents: [${agents.join(', ')}] }; }`,
    '',
  ].join('\n');
  return { source, bodies: JSON.stringify(bodies) };
}
