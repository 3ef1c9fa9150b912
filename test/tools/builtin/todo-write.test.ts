import { expect, test } from 'bun:test';
import { todoWriteTool } from '../../../src/tools/builtin/index.ts';
import type { TodoItem } from '../../../src/tools/index.ts';
import { makeContext, runTool } from '../tool-context.ts';

test('replaces the session list and confirms', async () => {
  const ctx = makeContext('/nowhere');
  ctx.todos.set([{ content: 'old', status: 'pending' }]);
  const todos: TodoItem[] = [
    { content: 'Write tests', status: 'completed' },
    { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
    { content: 'Ship it', status: 'pending' },
  ];
  expect(await runTool(todoWriteTool, { todos }, ctx)).toEqual({
    content: 'Todo list updated: 3 items (1 completed, 1 in progress, 1 pending). Keep it current as you work.',
    display: { type: 'todos', items: todos },
  });
  expect(ctx.todoItems()).toEqual(todos);
});

test('an empty list clears it; a bad status is an instruction', async () => {
  const ctx = makeContext('/nowhere');
  expect((await runTool(todoWriteTool, { todos: [] }, ctx)).content).toBe('Todo list cleared.');
  expect(await runTool(todoWriteTool, { todos: [{ content: 'x', status: 'done' }] }, ctx)).toEqual({
    content: 'Invalid input for TodoWrite: todos.0.status: Invalid option: expected one of "pending"|"in_progress"|"completed". Rewrite the input so it satisfies the schema.',
    isError: true,
  });
});

test('intent: TodoWrite, touches no paths', () => {
  expect(todoWriteTool.intent({ todos: [] }, { cwd: '/x', roots: ['/x'] })).toEqual({
    ruleName: 'TodoWrite',
    paths: [],
    summary: 'Update the todo list (0 items)',
  });
});
