export * from './messages.ts';
export type * from './types.ts';
