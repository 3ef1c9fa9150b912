import { expect, test } from 'bun:test';
import { ModelChain } from '../../src/agent/fallback.ts';

test('the chain moves on only for failures another model could answer, and only while there is a next model', () => {
  const chain = new ModelChain('a', ['b', 'a', 'c']);
  expect(chain.current).toBe('a');
  expect(chain.advance({ kind: 'bad_request', message: 'too long' })).toBeUndefined();
  expect(chain.advance({ kind: 'auth', message: 'no key' })).toBeUndefined();
  expect(chain.advance({ kind: 'aborted', message: 'stop' })).toBeUndefined();
  expect(chain.advance({ kind: 'overloaded', message: '529' })).toBe('b');
  expect(chain.advance({ kind: 'rate_limit', message: '429' })).toBe('c');
  expect(chain.current).toBe('c');
  expect(chain.advance({ kind: 'server', message: '503' })).toBeUndefined();
  expect(chain.current).toBe('c');
});
