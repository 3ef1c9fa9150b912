/**
 * The TUI's sub-agent part: the manager's status as updates for the cards
 * and the worktree listing (queries), and what the `stop_subagent`,
 * `merge_worktree` and `remove_worktree` operations do (the same functions
 * `moat worktrees …` uses, on the repository holding cwd).
 */
import {
  deleteWorktree,
  diffWorktree,
  findWorktree,
  listWorktrees,
  mergeWorktree,
  repoInfo,
  type AgentInfo,
  type AgentSession,
  type SubagentSupport,
} from '../agent/index.ts';
import type { OwnerControls } from '../protocol/index.ts';
import type { SessionQueries, SubagentUpdate, WorktreeView } from '../tui/index.ts';
import { errorMessage } from '../util/index.ts';
import type { RecordChange } from './checkpoint-setup.ts';

interface SubagentControls {
  queries: Pick<SessionQueries, 'agentDefinitions' | 'subagents' | 'onSubagentUpdate' | 'listWorktrees' | 'worktreeDiffStat'>;
  controls: Required<Pick<OwnerControls<AgentSession>, 'stopSubagent' | 'mergeWorktree' | 'removeWorktree'>>;
  /** Drops the UI's listeners (exiting). */
  close: () => void;
}

/** `recordChange`: the open session's checkpoint around a merge (it writes into the project). */
export function subagentControls(support: SubagentSupport | undefined, cwd: string, log: (message: string) => void, recordChange: RecordChange = (_agent, change) => change()): SubagentControls {
  const listeners = new Set<(u: SubagentUpdate) => void>();
  const deliver = (u: SubagentUpdate) => {
    for (const l of listeners) {
      try {
        l(u);
      } catch (e) {
        // The manager calls us from inside a sub-agent's run: a UI bug must not end the agent.
        log(`sub-agent update failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    }
  };
  const unsubscribe = support?.manager.subscribe((info: AgentInfo) => {
    if (info.finishedAt === undefined) {
      deliver({ info });
      return;
    }
    // Ended: the outcome (answer, branch, files) has settled just before this call.
    support.manager
      .outcome(info.agentId)
      ?.then((outcome) => deliver({ info, outcome }))
      .catch((e: unknown) => log(`sub-agent outcome failed: ${errorMessage(e)}`));
  });
  const queries: SubagentControls['queries'] = {
    agentDefinitions: () => (support?.catalog?.list() ?? []).map((d) => ({ name: d.name, description: d.description, ...(d.model ? { model: d.model } : {}), ...(d.tools ? { tools: d.tools } : {}) })),
    subagents: () => support?.manager.list() ?? [],
    onSubagentUpdate: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listWorktrees: async (): Promise<WorktreeView[]> => {
      // Outside a repository (or before its first commit) there is simply nothing to list.
      const repo = await repoInfo(cwd);
      if (!repo?.head) return [];
      return (await listWorktrees(cwd)).map((i) => ({
        id: i.record.id,
        branch: i.record.branch,
        description: i.record.description,
        state: i.state,
        files: i.changes?.files ?? [],
      }));
    },
    worktreeDiffStat: async (id) => diffWorktree(await findWorktree(cwd, id), true),
  };
  const controls: SubagentControls['controls'] = {
    stopSubagent: (agentId) => support?.manager.stop(agentId) ?? false,
    mergeWorktree: async (agent, id) => {
      const item = await findWorktree(cwd, id);
      return { branch: item.record.branch, outcome: await recordChange(agent, () => mergeWorktree(cwd, item)) };
    },
    removeWorktree: async (id, force) => {
      const item = await findWorktree(cwd, id);
      await deleteWorktree(item, force);
      return { branch: item.record.branch };
    },
  };
  return {
    queries,
    controls,
    close: () => {
      listeners.clear();
      unsubscribe?.();
    },
  };
}
