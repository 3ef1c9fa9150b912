-- Initial schema. Timestamps are Unix epoch milliseconds (INTEGER); JSON
-- columns hold provider-neutral shapes from src/providers/messages.ts and
-- src/tools/types.ts. Tables are STRICT so a wrong type is an error, not a
-- silent coercion.

CREATE TABLE sessions (
  id              TEXT    PRIMARY KEY,
  cwd             TEXT    NOT NULL,
  project_root    TEXT    NOT NULL,
  git_branch      TEXT,
  model           TEXT    NOT NULL,
  title           TEXT,
  -- Sub-agent sessions point at their parent; deleting the parent deletes them.
  parent_id       TEXT    REFERENCES sessions(id) ON DELETE CASCADE,
  agent_id        TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL,
  permission_mode TEXT    NOT NULL,
  todos           TEXT    NOT NULL DEFAULT '[]',
  -- No CHECK on status: new states must not need a table rebuild.
  status          TEXT    NOT NULL DEFAULT 'active'
) STRICT;

-- `--continue` (latest in cwd) and `sessions list` (per cwd, newest first).
CREATE INDEX sessions_by_cwd ON sessions (cwd, updated_at DESC);
-- `sessions list --all`.
CREATE INDEX sessions_by_updated ON sessions (updated_at DESC);
-- Cascading deletes and "children of" lookups.
CREATE INDEX sessions_by_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL;

CREATE TABLE messages (
  session_id TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL,
  role       TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
  content    TEXT    NOT NULL,
  turn       INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  -- Also the index for "all messages of a session in order" and for max(seq).
  PRIMARY KEY (session_id, seq)
) STRICT;

CREATE TABLE tool_calls (
  id          INTEGER PRIMARY KEY,
  session_id  TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  tool_use_id TEXT    NOT NULL,
  name        TEXT    NOT NULL,
  input       TEXT    NOT NULL,
  result      TEXT    NOT NULL,
  is_error    INTEGER NOT NULL CHECK (is_error IN (0, 1)),
  duration_ms INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  UNIQUE (session_id, tool_use_id)
) STRICT;

CREATE TABLE usage (
  id                          INTEGER PRIMARY KEY,
  session_id                  TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn                        INTEGER NOT NULL,
  model                       TEXT    NOT NULL,
  input_tokens                INTEGER NOT NULL,
  output_tokens               INTEGER NOT NULL,
  cache_creation_input_tokens INTEGER NOT NULL,
  cache_read_input_tokens     INTEGER NOT NULL,
  cost_usd                    REAL    NOT NULL,
  created_at                  INTEGER NOT NULL
) STRICT;

CREATE INDEX usage_by_session ON usage (session_id, turn);

CREATE TABLE prompt_history (
  id           INTEGER PRIMARY KEY,
  project_root TEXT    NOT NULL,
  text         TEXT    NOT NULL,
  created_at   INTEGER NOT NULL
) STRICT;

-- ↑/↓ history: newest first within one project.
CREATE INDEX prompt_history_by_project ON prompt_history (project_root, id DESC);
