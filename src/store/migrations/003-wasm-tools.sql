-- WebAssembly tools (issue 4).
--
-- wasm_components indexes the transpile cache ($XDG_CACHE_HOME/moat/components/<sha256>/):
-- one row per component, keyed by the sha256 of its bytes, with what its
-- registration learned (the specs parsed from its help, its imports), so a
-- later start neither transpiles nor runs --help again. Different bytes are
-- a different row: never a stale one. spec_format retires rows written by an
-- older help parser.
CREATE TABLE wasm_components (
  hash                TEXT    PRIMARY KEY,
  name                TEXT    NOT NULL,
  spec_format         INTEGER NOT NULL,
  specs               TEXT    NOT NULL,
  imports             TEXT    NOT NULL,
  exports_cabi_realloc INTEGER NOT NULL,
  created_at          INTEGER NOT NULL,
  last_used_at        INTEGER NOT NULL
) STRICT;

-- `moat tool install`: what was installed into the user's tool folder, and when.
CREATE TABLE wasm_installs (
  name         TEXT    PRIMARY KEY,
  version      TEXT,
  hash         TEXT    NOT NULL,
  file         TEXT    NOT NULL,
  capabilities TEXT    NOT NULL,
  installed_at INTEGER NOT NULL
) STRICT;
