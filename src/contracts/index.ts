/** Names and shapes every layer shares (modes, the sandbox policy, zod issue lines): a leaf any folder may import. */
export * from './permission-modes.ts';
export * from './sandbox.ts';
export * from './format-issue.ts';
