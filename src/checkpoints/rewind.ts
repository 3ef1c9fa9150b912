/** One rewind, whoever asks (`moat rewind`, the TUI, stream-json): the code to a checkpoint, the conversation to a fork, or both. */
import { MoatError } from '../util/index.ts';
import { leftOutLines, planLines } from './describe.ts';
import type { CodePlan, ProjectCheckpoints } from './project-checkpoints.ts';

export interface RewindRequest {
  sessionId: string;
  /** The turn of the user message to go back to just before. */
  turn: number;
  code: boolean;
  conversation: boolean;
  /** Overwrite files changed outside moat since the checkpoint (the second time of asking). */
  force: boolean;
  /** Say what would change; change nothing. */
  dryRun: boolean;
}

export interface RewindReport {
  /** One line per file changed (or, dry, that would be). */
  files: string[];
  /** What the code rewind leaves as it is, one line each. */
  leftOut: string[];
  /** The saved branch of the conversation (its session id), when the conversation was rewound. */
  branch: string | undefined;
  /** The commit holding the tree as it was before the rewind. */
  saved: string | undefined;
  plan: CodePlan | undefined;
}

/**
 * Code first: it is what can refuse (files changed outside moat), and a
 * refused rewind leaves the conversation as it is too. `forkConversation`
 * moves the conversation from the message on to a saved branch and returns
 * its id (a live session's own, or the store's for a session not running).
 */
export async function rewind(req: RewindRequest, checkpoints: ProjectCheckpoints | undefined, forkConversation: (turn: number) => string, maxFileBytes: number): Promise<RewindReport> {
  const report: RewindReport = { files: [], leftOut: [], branch: undefined, saved: undefined, plan: undefined };
  if (req.code) {
    if (!checkpoints) throw new MoatError('usage', 'checkpoints are off ([checkpoints] enabled = false): the code cannot be rewound');
    const plan = await checkpoints.plan(req.sessionId, req.turn);
    report.plan = plan;
    report.files = planLines(plan);
    report.saved = plan.saved;
    if (plan.target !== undefined) report.leftOut = leftOutLines(plan.leftOut, await checkpoints.ignoredFolders(), maxFileBytes);
    if (!req.dryRun) await checkpoints.restore(plan, { force: req.force });
  }
  if (req.conversation && !req.dryRun) report.branch = forkConversation(req.turn);
  return report;
}
