/** A session as Claude Code's JSONL transcript, for hooks that read `transcript_path`; written from the store when a hook runs. */
import { appendFileSync, chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '../providers/index.ts';
import type { Store } from '../store/index.ts';
import { newId } from '../util/index.ts';

/** Anthropic's content blocks, as Claude Code writes them into `message.content`. */
function wireContent(m: Message): unknown[] {
  return m.content.map((p) => {
    switch (p.type) {
      case 'text':
        return { type: 'text', text: p.text };
      case 'image':
        return { type: 'image', source: { type: 'base64', media_type: p.mediaType, data: p.data } };
      case 'thinking':
        return { type: 'thinking', thinking: p.thinking, signature: p.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: p.data };
      case 'tool_use':
        return { type: 'tool_use', id: p.id, name: p.name, input: p.input };
      case 'tool_result':
        return {
          type: 'tool_result',
          tool_use_id: p.toolUseId,
          content: p.content.map((c) => (c.type === 'text' ? { type: 'text', text: c.text } : { type: 'image', source: { type: 'base64', media_type: c.mediaType, data: c.data } })),
          is_error: p.isError,
        };
    }
  });
}

export interface TranscriptMeta {
  cwd: string;
  gitBranch: string | undefined;
  /** A sub-agent's session: Claude Code marks its lines as a side chain. */
  sidechain: boolean;
}

/**
 * `<dir>/<session id>.jsonl`, one line per finished message in Claude Code's
 * shape (`type`, `message` with Anthropic content blocks, `uuid` chained by
 * `parentUuid`, `sessionId`, `timestamp`, `cwd`), so hook scripts written for
 * Claude Code read it unchanged. The store stays the record: the file is
 * written only when a hook is about to run, appending what finished since.
 * It holds the whole conversation, also what a compaction summarised.
 */
export class TranscriptFile {
  readonly path: string;
  /** The last stored message written; 0 until this process first writes (then the file is rewritten whole). */
  private lastSeq = 0;
  private lastUuid: string | null = null;

  constructor(
    private readonly dir: string,
    private readonly sessionId: string,
    private readonly meta: TranscriptMeta,
  ) {
    this.path = join(dir, `${sessionId}.jsonl`);
  }

  /** Brings the file up to date with the store; returns its path. Throws when it cannot be written. */
  sync(store: Store): string {
    const fresh = this.lastSeq === 0;
    const lines = store.messages.listFrom(this.sessionId, this.lastSeq + 1).map((m) => {
      const uuid = newId();
      const line = {
        parentUuid: this.lastUuid,
        isSidechain: this.meta.sidechain,
        userType: 'external',
        cwd: this.meta.cwd,
        sessionId: this.sessionId,
        ...(this.meta.gitBranch === undefined ? {} : { gitBranch: this.meta.gitBranch }),
        type: m.message.role,
        message: { role: m.message.role, content: wireContent(m.message) },
        uuid,
        timestamp: new Date(m.createdAt).toISOString(),
      };
      this.lastUuid = uuid;
      this.lastSeq = m.seq;
      return `${JSON.stringify(line)}\n`;
    });
    const text = lines.join('');
    if (fresh) {
      // Transcripts hold what the session read and wrote: only the user may read them.
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      writeFileSync(this.path, text, { mode: 0o600 });
      chmodSync(this.path, 0o600);
    } else if (text !== '') {
      appendFileSync(this.path, text);
    }
    return this.path;
  }
}
