import { expect, test } from 'bun:test';
import { formatAge } from '../../src/util/index.ts';

test('formatAge picks the largest whole unit', () => {
  const now = 1_000_000_000_000;
  expect([0, 59_000, 60_000, 3_599_000, 3_600_000, 86_400_000 * 3, -5000].map((d) => formatAge(now - d, now))).toEqual([
    '0s ago',
    '59s ago',
    '1m ago',
    '60m ago',
    '1h ago',
    '3d ago',
    '0s ago',
  ]);
});
