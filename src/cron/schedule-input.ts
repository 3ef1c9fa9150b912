/** The Schedule tool's input, in its own module: the tool's JSON Schema is computed from it while bundling. */
import { z } from 'zod';
import { once } from '../util/index.ts';

export const scheduleInput = once(() =>
  z.discriminatedUnion('action', [
    z.strictObject({
      action: z.literal('create'),
      cron: z.string().min(1).describe('Five-field cron expression: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5" for weekdays at 9:00'),
      task: z.string().min(1).describe('The prompt each run gets; it runs unattended, so say everything it needs'),
      name: z.string().optional().describe('A short name (lower-case, digits, - and _)'),
      timezone: z.string().optional().describe('IANA time zone, e.g. Europe/Berlin (default: the machine\'s)'),
    }),
    z.strictObject({ action: z.literal('list') }),
    z.strictObject({ action: z.literal('delete'), name: z.string().min(1) }),
  ]),
);
