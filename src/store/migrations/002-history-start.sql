-- Context compaction: the conversation the agent replays on resume starts at
-- this message (a summary of everything before it). Older messages stay, so
-- exports and `sessions show` still hold the whole transcript.
ALTER TABLE sessions ADD COLUMN history_start_seq INTEGER NOT NULL DEFAULT 0;
