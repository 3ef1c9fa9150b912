/** The exit codes a sandboxed run reports when it did not exit by itself. */

/** The run trapped or hit a limit in process. */
export const TRAP_EXIT_CODE = 128;
/** The child was killed at the deadline (128 + SIGKILL). */
export const KILLED_EXIT_CODE = 137;
