export type * from './events.ts';
