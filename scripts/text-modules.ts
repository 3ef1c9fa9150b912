/**
 * Text files moat imports as strings (`with { type: 'text' }`: tool
 * descriptions, prompts, bundled skills and agents, SQL migrations) become
 * JavaScript modules exporting their text, so the string is part of the
 * chunk that imports it. Left to Bun, a compiled executable keeps each one a
 * module of its own and the chunk `require`s it when it is evaluated: 17 of
 * them before `-p`'s first request, about 0.1 ms each (a module record, the
 * embedded file read and decoded).
 */

/** The Bun plugin for scripts/build.ts: every `.md` and `.sql` file of moat's own sources. */
export const textModulesPlugin: Bun.BunPlugin = {
  name: 'moat-text-modules',
  setup(b) {
    b.onLoad({ filter: /[\\/](src|skills)[\\/].*\.(md|sql)$/ }, async (a) => ({ loader: 'js', contents: `export default ${JSON.stringify(await Bun.file(a.path).text())};` }));
  },
};
