/** The manager's launch contract, named for the tests (LaunchSpec is internal to the agent layer). */
import type { SubagentManager } from '../../../src/agent/index.ts';
export { requestStop, SubagentManager, type SubagentOutcome } from '../../../src/agent/index.ts';
export type LaunchSpecForTest = Parameters<SubagentManager['launch']>[0];
