/** A session's rewind: its files back to a checkpoint and/or its conversation back to before a user message, the old branch kept. */
import type { Message } from '../providers/index.ts';
import type { Store } from '../store/index.ts';
import { MoatError } from '../util/index.ts';
import { rewindHistory } from './session-tree.ts';
import type { CodeRewind, TurnCheckpoints } from './turn-checkpoint.ts';

/** What a front end asks for: the point (a user message's checkpoint id, `turn-N`) and what to put back. */
export interface RewindRequest {
  checkpointId: string;
  code: boolean;
  conversation: boolean;
  /** Overwrite files changed outside moat since the checkpoint: the second time of asking. */
  force?: boolean;
  dryRun?: boolean;
}

export interface RewindOutcome {
  code: CodeRewind | undefined;
  /** The saved old branch (a session id), when the conversation was rewound. */
  branch: string | undefined;
}

/** The turn a checkpoint id names; a malformed id is a usage error. */
export function turnOf(checkpointId: string): number {
  const m = /^turn-(\d+)$/.exec(checkpointId);
  if (!m) throw new MoatError('usage', `${checkpointId} is not a checkpoint id (they look like turn-3)`);
  return Number(m[1]);
}

/**
 * Code first, because it can refuse (files changed outside moat) and a
 * refused rewind changes nothing; then the conversation. Returns the history
 * the session goes on with when the conversation was rewound.
 */
export async function rewindSession(o: { hook: TurnCheckpoints | undefined; store: Store; sessionId: string; cwd: string }, req: RewindRequest): Promise<RewindOutcome & { history?: Message[] }> {
  const turn = turnOf(req.checkpointId);
  if (!o.store.checkpoints.userPrompts(o.sessionId).some((p) => p.turn === turn)) {
    throw new MoatError('not_found', `session ${o.sessionId} has no user message ${req.checkpointId}`);
  }
  let code: CodeRewind | undefined;
  if (req.code) {
    if (o.hook?.rewindCode === undefined) throw new MoatError('usage', 'checkpoints are off in this session: the files cannot be rewound');
    code = await o.hook.rewindCode(o.sessionId, turn, { force: req.force ?? false, dryRun: req.dryRun ?? false });
  }
  if (!req.conversation || req.dryRun === true) return { code, branch: undefined };
  const { branch, history } = rewindHistory(o.store, o.sessionId, turn, o.cwd);
  return { code, branch, history };
}
