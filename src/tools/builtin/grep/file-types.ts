/**
 * The `type` filter: ripgrep-style names for common languages, mapped to file
 * extensions (and a few exact file names).
 */
const TYPES: Readonly<Record<string, readonly string[]>> = {
  c: ['c', 'h'],
  cpp: ['cpp', 'cc', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h', 'inl'],
  cs: ['cs'],
  css: ['css', 'scss', 'sass', 'less'],
  dart: ['dart'],
  elixir: ['ex', 'exs'],
  erlang: ['erl', 'hrl'],
  go: ['go'],
  haskell: ['hs', 'lhs'],
  html: ['html', 'htm', 'xhtml'],
  java: ['java'],
  js: ['js', 'jsx', 'mjs', 'cjs'],
  json: ['json', 'jsonc', 'json5'],
  kotlin: ['kt', 'kts'],
  lua: ['lua'],
  make: ['mk', 'mak', 'Makefile', 'makefile', 'GNUmakefile'],
  md: ['md', 'markdown', 'mdx'],
  ocaml: ['ml', 'mli'],
  php: ['php', 'phtml'],
  py: ['py', 'pyi', 'pyw'],
  ruby: ['rb', 'rake', 'gemspec', 'Gemfile', 'Rakefile'],
  rust: ['rs'],
  scala: ['scala', 'sc'],
  sh: ['sh', 'bash', 'zsh', 'fish'],
  sql: ['sql'],
  svelte: ['svelte'],
  swift: ['swift'],
  toml: ['toml'],
  ts: ['ts', 'tsx', 'mts', 'cts'],
  txt: ['txt'],
  vue: ['vue'],
  xml: ['xml', 'xsd', 'xsl', 'svg'],
  yaml: ['yaml', 'yml'],
  zig: ['zig'],
};

const ALIASES: Readonly<Record<string, string>> = {
  typescript: 'ts',
  javascript: 'js',
  python: 'py',
  rs: 'rust',
  golang: 'go',
  markdown: 'md',
  yml: 'yaml',
  csharp: 'cs',
  'c++': 'cpp',
  shell: 'sh',
  bash: 'sh',
  rb: 'ruby',
  kt: 'kotlin',
};

export const KNOWN_TYPES: readonly string[] = Object.keys(TYPES);

/** A predicate on file names for `type`, or undefined when the type is unknown. */
export function typeFilter(type: string): ((name: string) => boolean) | undefined {
  const key = type.trim().toLowerCase();
  const exts = TYPES[ALIASES[key] ?? key];
  if (exts === undefined) return undefined;
  const extSet = new Set(exts);
  return (name) => {
    if (extSet.has(name)) return true;
    const dot = name.lastIndexOf('.');
    return dot > 0 && extSet.has(name.slice(dot + 1));
  };
}
