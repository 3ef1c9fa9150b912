-- Checkpoints and rewind.
--
-- checkpoints: the working tree before (and after) each user turn that could
-- change files, as commits in the project's shadow git repository
-- ($XDG_DATA_HOME/moat/checkpoints/<project>/). `turn` is the turn of the
-- user message the checkpoint comes before (its first message's turn).
-- `left_out` lists files the checkpoint does not hold (over the size limit,
-- nested repositories) as JSON.
CREATE TABLE checkpoints (
  session_id    TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  turn          INTEGER NOT NULL,
  project_root  TEXT    NOT NULL,
  before_commit TEXT    NOT NULL,
  before_tree   TEXT    NOT NULL,
  after_commit  TEXT,
  after_tree    TEXT,
  left_out      TEXT    NOT NULL DEFAULT '[]',
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (session_id, turn)
) STRICT;
CREATE INDEX checkpoints_by_created ON checkpoints (created_at);

-- A conversation rewind keeps the old branch as a session of its own: this
-- one's messages from `branch_at_seq` on were rewound away in `branch_of`.
ALTER TABLE sessions ADD COLUMN branch_of TEXT;
ALTER TABLE sessions ADD COLUMN branch_at_seq INTEGER;
