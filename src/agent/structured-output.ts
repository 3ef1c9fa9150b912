/** `--json-schema`: the final answer as JSON valid against a schema, given through the StructuredOutput tool. */
import { defineTool, type AnyTool } from '../tools/index.ts';
import type { OutputSchema } from './settings.ts';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';

/** Reminders when the model ends without calling the tool, before the run fails. */
export const MAX_STRUCTURED_OUTPUT_RETRIES = 3;

export const STRUCTURED_OUTPUT_INSTRUCTION = `When you have the final answer, give it by calling the ${STRUCTURED_OUTPUT_TOOL} tool with the answer as its input. The input must match the tool's schema; this is the only answer the user sees.`;

export const STRUCTURED_OUTPUT_REMINDER = `You ended without calling the ${STRUCTURED_OUTPUT_TOOL} tool. Call ${STRUCTURED_OUTPUT_TOOL} now with the final answer as its input, matching its schema.`;

/**
 * The tool the model gives its final answer with. Its JSON Schema is the
 * user's, sent as given; the input is validated against it (an invalid answer
 * goes back to the model as an error to fix), and the valid one is recorded.
 */
export function structuredOutputTool(output: OutputSchema, record: (value: unknown) => void): AnyTool {
  return defineTool({
    name: STRUCTURED_OUTPUT_TOOL,
    description: 'Gives the final answer as structured data. Call it once, at the end, with the whole answer as its input.',
    inputSchema: output.validator,
    jsonSchema: output.schema,
    effect: 'read',
    intent: () => ({ ruleName: STRUCTURED_OUTPUT_TOOL, paths: [], summary: 'the final answer' }),
    async execute(input) {
      record(input);
      return { content: 'The structured answer was recorded.' };
    },
  });
}
