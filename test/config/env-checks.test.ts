/**
 * The environment layer checks MOAT_MODEL/ANTHROPIC_MODEL and
 * ANTHROPIC_BASE_URL with plain functions (ENV_STRING_CHECKS) instead of
 * zod, whose first use costs start-up time. zod stays the reference: for
 * every value here each check must accept exactly what its zod field
 * accepts, and return what zod returns.
 */
import { describe, expect, test } from 'bun:test';
import { ENV_STRING_CHECKS, FILE_FIELDS } from '../../src/config/schema.ts';

const VALUES = [
  'claude-sonnet-4-5', '  claude-opus-4  ', 'openai/gpt-5.1', 'ollama/qwen3:8b', ' ', '\t\n', 'x', '模型', 'a b',
  'http://127.0.0.1:8080', 'https://api.anthropic.com', 'https://gw.example.com/anthropic/', 'HTTPS://EXAMPLE.COM', 'http://[::1]:9/',
  'ftp://example.com', 'example.com', '//example.com', 'http:/x', 'http://', 'https://user:pass@host:443/p?q=1#f', 'file:///etc/passwd', 'javascript:alert(1)', ' http://x.y ',
];

describe('ENV_STRING_CHECKS against their zod fields', () => {
  for (const key of Object.keys(ENV_STRING_CHECKS) as (keyof typeof ENV_STRING_CHECKS)[]) {
    test(key, () => {
      const field = FILE_FIELDS[key]();
      for (const value of VALUES) {
        const zod = field.safeParse(value);
        expect([value, ENV_STRING_CHECKS[key](value)]).toEqual([value, zod.success ? zod.data : undefined]);
      }
    });
  }
});
