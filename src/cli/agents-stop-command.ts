/** `moat agents stop ID`: stops a background sub-agent of another moat process. */
import { announcedAgents, processAlive, requestStop, retireAgent, type RunningAgentFile } from '../agent/index.ts';
import { MoatError } from '../util/index.ts';
import { EXIT } from './exit-codes.ts';
import { agentControlDir } from './subagent-setup.ts';
import { out } from './write-out.ts';

/** How long `moat agents stop` waits for the agent to wind down (commit its worktree) before giving up. */
const STOP_WAIT_MS = 15_000;

function running(dir: string): RunningAgentFile[] {
  const all = announcedAgents(dir);
  // A moat that was killed leaves its announcements behind: tidy them up as we go.
  for (const a of all) if (!processAlive(a.pid)) retireAgent(dir, a.agentId);
  return all.filter((a) => processAlive(a.pid));
}

/** `moat agents ps` and `moat agents stop ID`: background sub-agents of any moat process of this user. */
export const agentsControlCommands = {
  async agentsPs(): Promise<number> {
    const list = running(agentControlDir(process.env));
    if (list.length === 0) {
      out('no sub-agents are running\n');
      return EXIT.ok;
    }
    for (const a of list) {
      const secs = Math.round((Date.now() - a.startedAt) / 1000);
      out(`${a.agentId}  pid ${a.pid}  ${String(secs).padStart(5)}s  ${a.description.replace(/\s+/g, ' ').slice(0, 70)}\n`);
    }
    return EXIT.ok;
  },

  async agentsStop(id: string): Promise<number> {
    const dir = agentControlDir(process.env);
    const list = running(dir);
    const matches = list.filter((a) => a.agentId === id || a.agentId.startsWith(id));
    if (matches.length > 1) throw new MoatError('usage', `agent id '${id}' is ambiguous: ${matches.map((a) => a.agentId).join(', ')}`);
    const agent = matches[0];
    if (!agent) throw new MoatError('not_found', `no running sub-agent '${id}'${list.length > 0 ? ` (running: ${list.map((a) => a.agentId).join(', ')})` : ''}`);
    requestStop(dir, agent.agentId);
    const deadline = Date.now() + STOP_WAIT_MS;
    while (Date.now() < deadline) {
      if (!announcedAgents(dir).some((a) => a.agentId === agent.agentId)) {
        out(`stopped sub-agent ${agent.agentId}\n`);
        return EXIT.ok;
      }
      await Bun.sleep(50);
    }
    throw new MoatError('internal', `sub-agent ${agent.agentId} did not stop within ${STOP_WAIT_MS / 1000}s (moat process ${agent.pid})`);
  },
};
