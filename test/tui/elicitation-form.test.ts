// An MCP server's form as state: fields read from the restricted schema, typing, choosing, and submit checked by the schema.
import { describe, expect, test } from 'bun:test';
import type { ElicitationRequest } from '../../src/tui/views.ts';
import { contentOf, editText, moveFocus, openForm, step, submit, toggle, type ElicitationForm } from '../../src/tui/state/elicitation-form.ts';
import * as ed from '../../src/tui/state/line-editor.ts';

const request: ElicitationRequest = {
  server: 'shop',
  message: 'Where should we ship?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2, maxLength: 20 },
      email: { type: 'string', format: 'email' },
      count: { type: 'integer', title: 'How many', minimum: 1, maximum: 10, default: 1 },
      gift: { type: 'boolean', title: 'Gift wrap' },
      speed: { type: 'string', enum: ['slow', 'fast'], enumNames: ['Standard', 'Express'] },
      color: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }, { const: 'g', title: 'Green' }] },
      extras: { type: 'array', maxItems: 1, items: { anyOf: [{ const: 'card', title: 'Card' }, { const: 'bag', title: 'Bag' }] } },
    },
    required: ['name', 'email', 'color'],
  },
};

const type = (form: ElicitationForm, text: string) => editText(form, (st) => ed.insert(st, text));
const field = (form: ElicitationForm, key: string) => form.fields.find((f) => f.key === key);
const focusOn = (form: ElicitationForm, key: string): ElicitationForm => ({ ...form, focus: form.fields.findIndex((f) => f.key === key) });

describe('elicitation form state', () => {
  test('fields are read from the schema: labels, required, hints, defaults, choices', () => {
    const form = openForm(request);
    expect(form.fields.map((f) => ({ key: f.key, label: f.label, required: f.required, hint: f.hint, kind: f.input.kind }))).toEqual([
      { key: 'name', label: 'Name', required: true, hint: '2 to 20 characters', kind: 'text' },
      { key: 'email', label: 'email', required: true, hint: 'email', kind: 'text' },
      { key: 'count', label: 'How many', required: false, hint: '1 to 10', kind: 'number' },
      { key: 'gift', label: 'Gift wrap', required: false, hint: undefined, kind: 'boolean' },
      { key: 'speed', label: 'speed', required: false, hint: undefined, kind: 'choice' },
      { key: 'color', label: 'color', required: true, hint: undefined, kind: 'choice' },
      { key: 'extras', label: 'extras', required: false, hint: 'at most 1 chosen', kind: 'multi' },
    ]);
    expect(field(form, 'speed')?.input).toEqual({
      kind: 'choice',
      choices: [
        { value: 'slow', label: 'Standard' },
        { value: 'fast', label: 'Express' },
      ],
      index: -1,
    });
    // The default is filled in; unset optional fields are left out, a boolean is sent as shown.
    expect(contentOf(form)).toEqual({ count: 1, gift: false });
  });

  test('typing edits the focused text field; Tab order wraps around', () => {
    let form = openForm(request);
    form = type(form, 'Ada');
    form = editText(form, ed.deleteBack);
    form = type(form, 'a Lovelace');
    expect(contentOf(form).name).toBe('Ada Lovelace');
    expect(moveFocus(form, -1).focus).toBe(6);
    expect(moveFocus(moveFocus(form, 1), 1).focus).toBe(2);
    // Typing on a field without text changes nothing.
    const onGift = focusOn(form, 'gift');
    expect(type(onGift, 'x')).toBe(onGift);
  });

  test('←/→ choose: an optional choice passes through none, a required one does not; Space flips a boolean and picks in a multi-select', () => {
    let form = focusOn(openForm(request), 'speed');
    form = step(form, 1);
    expect(contentOf(form).speed).toBe('slow');
    form = step(step(form, 1), 1);
    expect(contentOf(form).speed).toBeUndefined();
    form = focusOn(form, 'color');
    form = step(form, -1);
    expect(contentOf(form).color).toBe('g');
    form = step(step(form, 1), 1);
    expect(contentOf(form).color).toBe('g');
    form = toggle(focusOn(form, 'gift'));
    expect(contentOf(form).gift).toBe(true);
    form = focusOn(form, 'extras');
    form = toggle(step(form, 1));
    form = toggle(step(form, -1));
    // Listed in the server's order, whatever order they were picked in.
    expect(contentOf(form).extras).toEqual(['card', 'bag']);
  });

  test('submit checks the schema: each refused field gets its one-line error, the focus goes to the first', () => {
    let form = type(openForm(request), 'A');
    form = type(moveFocus(form, 1), 'not-an-email');
    form = editText(focusOn(form, 'count'), () => ed.setValue('11'));
    const outcome = submit(form);
    if (!('form' in outcome)) throw new Error('submit accepted an invalid form');
    const errors = Object.fromEntries(outcome.form.fields.flatMap((f) => (f.error === undefined ? [] : [[f.key, f.error]])));
    expect(errors).toEqual({
      name: 'Too small: expected string to have >=2 characters',
      email: 'Invalid email address',
      count: 'Too big: expected number to be <=10',
      color: 'required',
    });
    expect(outcome.form.focus).toBe(0);
    // Editing a field clears its error, the others stay.
    const edited = type(outcome.form, 'x');
    expect(field(edited, 'name')?.error).toBeUndefined();
    expect(field(edited, 'email')?.error).toBe('Invalid email address');
  });

  test('text in a number field and a fraction in an integer field are refused; a valid form is the answer', () => {
    let form = type(openForm(request), 'Ada');
    form = type(moveFocus(form, 1), 'ada@example.com');
    form = step(focusOn(form, 'color'), 1);
    form = editText(focusOn(form, 'count'), () => ed.setValue('two'));
    let outcome = submit(form);
    expect('form' in outcome && field(outcome.form, 'count')?.error).toBe('enter a whole number');
    form = editText(form, () => ed.setValue('2.5'));
    outcome = submit(form);
    expect('form' in outcome && field(outcome.form, 'count')?.error).toBe('enter a whole number');
    form = editText(form, () => ed.setValue(' 3 '));
    expect(submit(form)).toEqual({ answer: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', count: 3, gift: false, color: 'r' } } });
  });

  test('formats date, date-time and uri are checked; a form with no fields accepts with empty content', () => {
    const dated = openForm({
      server: 's',
      message: 'm',
      requestedSchema: { type: 'object', properties: { day: { type: 'string', format: 'date' }, at: { type: 'string', format: 'date-time' }, site: { type: 'string', format: 'uri' } } },
    });
    let form = type(dated, '2026-13-01');
    form = type(moveFocus(form, 1), 'tomorrow');
    form = type(moveFocus(form, 1), 'home page');
    const outcome = submit(form);
    expect('form' in outcome && outcome.form.fields.map((f) => f.error)).toEqual(['Invalid ISO date', 'Invalid ISO datetime', 'Invalid URL']);
    const fixed = [ed.setValue('2026-12-01'), ed.setValue('2026-12-01T10:00:00Z'), ed.setValue('https://example.com')].reduce(
      (f, value, i) => editText({ ...f, focus: i }, () => value),
      form,
    );
    expect(submit(fixed)).toEqual({ answer: { action: 'accept', content: { day: '2026-12-01', at: '2026-12-01T10:00:00Z', site: 'https://example.com' } } });
    expect(submit(openForm({ server: 's', message: 'Go ahead?', requestedSchema: { type: 'object', properties: {} } }))).toEqual({ answer: { action: 'accept', content: {} } });
  });

  test("keywords outside MCP's restricted schema are not run: a server's pattern (here not even a valid one) is ignored", () => {
    const hostile = {
      server: 's',
      message: 'm',
      requestedSchema: { type: 'object', properties: { code: { type: 'string', pattern: '(', maxLength: 3 } } },
    } as unknown as ElicitationRequest;
    const form = type(openForm(hostile), 'abcd');
    const outcome = submit(form);
    expect('form' in outcome && field(outcome.form, 'code')?.error).toBe('Too big: expected string to have <=3 characters');
    expect(submit(editText(form, ed.deleteBack))).toEqual({ answer: { action: 'accept', content: { code: 'abc' } } });
  });

  test('fields named __proto__ and constructor are fields like the others: checked, and sent as they were typed', () => {
    const hostile = JSON.parse(
      '{"server":"s","message":"m","requestedSchema":{"type":"object","properties":{"__proto__":{"type":"string","minLength":3},"constructor":{"type":"string"}},"required":["__proto__"]}}',
    ) as ElicitationRequest;
    let form = openForm(hostile);
    expect(form.fields.map((f) => f.key)).toEqual(['__proto__', 'constructor']);
    const empty = submit(form);
    expect('form' in empty && empty.form.fields.map((f) => f.error)).toEqual(['required', undefined]);
    form = type(form, 'ab');
    const short = submit(form);
    expect('form' in short && field(short.form, '__proto__')?.error).toBe('Too small: expected string to have >=3 characters');
    form = type(moveFocus(type(form, 'c'), 1), 'x');
    const outcome = submit(form);
    if (!('answer' in outcome) || outcome.answer.action !== 'accept') throw new Error('the form was refused');
    expect(JSON.stringify(outcome.answer.content)).toBe('{"__proto__":"abc","constructor":"x"}');
    expect(Object.keys(outcome.answer.content)).toEqual(['__proto__', 'constructor']);
  });
});
