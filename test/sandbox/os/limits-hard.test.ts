/** A command's setrlimit limits never ask for more than this process's hard limits (a container's --ulimit). */
import { expect, test } from 'bun:test';
import { hardLimit } from '../../../src/sandbox/os/limits.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max file size             unlimited            unlimited            bytes
Max data size             unlimited            unlimited            bytes
Max processes             1024                 1024                 processes
Max open files            1024                 4096                 files
`;

test('the hard limit of a named resource, Infinity when unlimited or missing', () => {
  expect(hardLimit('Max processes', LIMITS)).toBe(1024);
  expect(hardLimit('Max open files', LIMITS)).toBe(4096);
  expect(hardLimit('Max file size', LIMITS)).toBe(Infinity);
  expect(hardLimit('Max locked memory', LIMITS)).toBe(Infinity);
});

test("this process's own limits are read", () => {
  expect(hardLimit('Max processes')).toBeGreaterThan(0);
});
