/** Checkpoints of the working tree in a shadow git repository, and rewinding code to them. */
export { ProjectCheckpoints, shadowDir, DEFAULT_MAX_FILE_BYTES, type CodePlan, type RewindPoint, type CheckpointOptions } from './project-checkpoints.ts';
export { projectCheckpoints, turnHook, applyRetention, checkpointsRoot, type CheckpointSettings, type TurnHook } from './turn-hook.ts';
export { recoverRestore } from './apply-restore.ts';
export type { TreeChange, LineStat } from './tree-diff.ts';
export type { LeftOut } from './snapshot.ts';
export { planLines, leftOutLines, changeSummary } from './describe.ts';
export { rewind, type RewindRequest, type RewindReport } from './rewind.ts';
