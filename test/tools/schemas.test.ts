import { expect, test } from 'bun:test';
import { builtinTools, ToolRegistry } from '../../src/tools/index.ts';

// What the model sees. A change here changes the model's behaviour: review the snapshot diff.
for (const spec of new ToolRegistry(builtinTools()).specs()) {
  test(`${spec.name} input schema`, () => {
    expect(spec.inputSchema).toMatchSnapshot();
  });
  test(`${spec.name} has a description`, () => {
    expect(spec.description.length).toBeGreaterThan(200);
  });
}
