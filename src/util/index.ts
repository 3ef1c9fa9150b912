/** Small shared helpers: errors, ids, paths, queues. */
export { assertNever } from './assert-never.ts';
export { MoatError, errorMessage, errnoCode, type ErrorCode } from './errors.ts';
export { newId } from './ids.ts';
export { AsyncQueue } from './async-queue.ts';
export {
  checkContainment,
  normalizePath,
  isWithin,
  resolveReal,
  relativeIfWithin,
  type ContainmentResult,
} from './containment.ts';
export { formatAge } from './format-age.ts';
export { escapeRegExp, realPathOrSelf } from './text-and-paths.ts';
export { isRecord } from './is-record.ts';
export { once } from './once.ts';
export { atExit } from './exit-cleanup.ts';
export { answersAndExits, startupOver, startupPolicy } from './jit-policy.ts';
export { childProcess } from './child-process.ts';
export { groupStopper, signalGroup, type GroupStopper } from './process-group.ts';
export { signalTree } from './process-tree.ts';
export { homeOf, nodeOs } from './node-os.ts';
export { inputJsonSchema, inputJsonSchemaOf } from './json-schema.ts';
export { parseDuration } from './duration.ts';
export { outlineToml, lineOfPath, type TomlOutline, type TomlPath, type KeyEntry, type HeaderEntry, type Span, type ArraySpan } from './toml-outline.ts';
export { capStatus, gitHead, gitInfo, GIT_STATUS_ARGV, SAFE_GIT_FLAGS, type GitHead, type GitInfo, type GitStatusReader } from './git-info.ts';
