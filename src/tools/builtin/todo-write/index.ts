/** The TodoWrite tool: the session's task list. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { defineTool, type TodoItem, type ToolResult } from '../../types.ts';
import { plural } from '../shared/format.ts';
import description from './description.md' with { type: 'text' };

const todoSchema = () =>
  z.strictObject({
    content: z.string().min(1).describe('What needs doing, in the imperative: "Run the tests".'),
    status: z.enum(['pending', 'in_progress', 'completed']),
    activeForm: z.string().optional().describe('The same task in the present continuous, shown while it is in progress: "Running the tests".'),
  });

const inputSchema = once(() =>
  z.strictObject({
    todos: z.array(todoSchema()).describe('The complete, updated todo list. It replaces the previous list.'),
  }),
);

export const todoWriteTool = defineTool({
  name: 'TodoWrite',
  description,
  get inputSchema() {
    return inputSchema();
  },
  // It changes only this session's list, never the world: safe to run without asking.
  effect: 'read',
  intent(input) {
    return { ruleName: 'TodoWrite', paths: [], summary: `Update the todo list (${plural(input.todos.length, 'item')})` };
  },
  async execute(input, ctx): Promise<ToolResult> {
    const items: TodoItem[] = input.todos.map((t) => ({
      content: t.content,
      status: t.status,
      ...(t.activeForm === undefined ? {} : { activeForm: t.activeForm }),
    }));
    ctx.todos.set(items);
    const by = (s: TodoItem['status']) => items.filter((t) => t.status === s).length;
    const text =
      items.length === 0
        ? 'Todo list cleared.'
        : `Todo list updated: ${plural(items.length, 'item')} (${by('completed')} completed, ${by('in_progress')} in progress, ${by('pending')} pending). Keep it current as you work.`;
    return { content: text, display: { type: 'todos', items } };
  },
});
