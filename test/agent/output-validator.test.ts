/** `--json-schema`'s validator (src/agent/output-validator.ts): Ajv's verdicts, as the zod issues the model is told. */
import { describe, expect, test } from 'bun:test';
import { outputSchemaOf } from '../../src/agent/output-validator.ts';
import { invalidInputMessage } from '../../src/tools/index.ts';
import { MoatError } from '../../src/util/index.ts';

const ANSWER = {
  type: 'object',
  properties: {
    answer: { type: 'integer', minimum: 0 },
    mail: { type: 'string', format: 'email' },
    'a/b~c': { type: 'array', items: { type: 'string' } },
  },
  required: ['answer'],
  additionalProperties: false,
};

describe('outputSchemaOf', () => {
  test('a valid answer passes as it is; the schema goes to the model unchanged', () => {
    const o = outputSchemaOf(ANSWER, '--json-schema');
    expect(o.schema).toBe(ANSWER);
    expect(o.validator.safeParse({ answer: 42, mail: 'a@example.com', 'a/b~c': ['x'] })).toEqual({ success: true, data: { answer: 42, mail: 'a@example.com', 'a/b~c': ['x'] } });
  });

  test('every failure is one issue at its place (JSON Pointer escapes and array indexes decoded), and the model reads them all', () => {
    const r = outputSchemaOf(ANSWER, '--json-schema').validator.safeParse({ answer: -1, mail: 'nope', 'a/b~c': ['ok', 7], extra: true });
    expect(r.success).toBe(false);
    const issues = r.error?.issues.map((i) => ({ path: i.path, message: i.message })) ?? [];
    expect(issues).toContainEqual({ path: ['answer'], message: 'must be >= 0' });
    expect(issues).toContainEqual({ path: ['mail'], message: 'must match format "email"' });
    expect(issues).toContainEqual({ path: ['a/b~c', 1], message: 'must be string' });
    expect(issues).toContainEqual({ path: [], message: 'must NOT have additional properties ("extra")' });
    const told = invalidInputMessage('StructuredOutput', r.error?.issues ?? []);
    expect(told).toContain('answer: must be >= 0');
    expect(told).toContain('a/b~c.1: must be string');
    expect(told).toContain('input: must NOT have additional properties ("extra")');
  });

  test('a missing required field and a wrong type at the top', () => {
    const v = outputSchemaOf(ANSWER, '--json-schema').validator;
    expect(v.safeParse({}).error?.issues.map((i) => i.message)).toEqual(["must have required property 'answer'"]);
    expect(v.safeParse('42').error?.issues.map((i) => i.message)).toEqual(['must be object']);
  });

  test('the draft is the one $schema names: 2020-12 prefixItems, 2019-09 dependentRequired, draft-07 by default', () => {
    const v2020 = outputSchemaOf({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'array', prefixItems: [{ type: 'string' }], items: false }, 'x').validator;
    expect(v2020.safeParse(['a']).success).toBe(true);
    expect(v2020.safeParse([1]).success).toBe(false);
    expect(v2020.safeParse(['a', 'b']).success).toBe(false);
    const v2019 = outputSchemaOf({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', dependentRequired: { a: ['b'] } }, 'x').validator;
    expect(v2019.safeParse({ a: 1 }).success).toBe(false);
    expect(v2019.safeParse({ a: 1, b: 2 }).success).toBe(true);
    const v07 = outputSchemaOf({ type: 'array', items: [{ type: 'string' }], additionalItems: false }, 'x').validator;
    expect(v07.safeParse(['a']).success).toBe(true);
    expect(v07.safeParse(['a', 'b']).success).toBe(false);
  });

  test('keywords Ajv does not know are annotations; a schema it cannot compile is one usage error naming where it came from', () => {
    expect(outputSchemaOf({ type: 'string', 'x-widget': 'textarea' }, 'x').validator.safeParse('s').success).toBe(true);
    let thrown: unknown;
    try {
      outputSchemaOf({ type: 'nonsense' }, 'initialize.jsonSchema');
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MoatError);
    expect((thrown as MoatError).code).toBe('usage');
    expect((thrown as MoatError).message).toStartWith('initialize.jsonSchema: not a JSON Schema moat can check: schema is invalid');
  });
});
