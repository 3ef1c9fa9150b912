/**
 * One MCP elicitation form as the user fills it: the fields read from the
 * server's restricted schema, their values, which one has the focus, and the
 * errors of the last submit. Pure functions from state to state. Whether an
 * answer is valid is zod's call: each keyword of MCP's restricted schema
 * (format, lengths, bounds, choices, required) becomes the zod check of the
 * same meaning. Not `z.fromJSONSchema`, which reads every kind of schema and
 * so kept all of zod in the binary (+225 KB, over its size budget).
 */
import { z } from 'zod';
import type { ElicitationAnswer, ElicitationRequest } from '../views.ts';
import { EMPTY_EDITOR, setValue, type EditorState } from './line-editor.ts';

type Property = ElicitationRequest['requestedSchema']['properties'][string];
type Content = Extract<ElicitationAnswer, { action: 'accept' }>['content'];

export interface Choice {
  value: string;
  label: string;
}

export type FieldInput =
  | { kind: 'text'; editor: EditorState }
  | { kind: 'number'; editor: EditorState; integer: boolean }
  | { kind: 'boolean'; value: boolean }
  /** `index` -1: nothing chosen (an optional field left empty). */
  | { kind: 'choice'; choices: Choice[]; index: number }
  | { kind: 'multi'; choices: Choice[]; chosen: readonly string[]; cursor: number };

export interface FormField {
  key: string;
  label: string;
  description?: string;
  required: boolean;
  /** What the field takes, in a few words (`email`, `1 to 100`, `at most 3`), shown while it is empty. */
  hint?: string;
  input: FieldInput;
  /** Why the last submit refused this field's value (one line). */
  error?: string;
}

export interface ElicitationForm {
  server: string;
  message: string;
  fields: readonly FormField[];
  focus: number;
  /**
   * What answers are checked against: only the keywords MCP's restricted schema defines, so what
   * else a server puts in its request (a `pattern`, a regular expression it chose) is never run.
   * Its keys are the fields' positions (`f0`, `f1` …), not the server's names: a field called
   * `__proto__` or `constructor` is then checked like any other.
   */
  validator: z.ZodType;
}

const FORMAT_HINTS: Record<string, string> = { email: 'email', uri: 'https://…', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDThh:mm:ssZ' };

function range(min: number | undefined, max: number | undefined, unit = ''): string | undefined {
  if (min !== undefined && max !== undefined) return `${min} to ${max}${unit}`;
  if (min !== undefined) return `at least ${min}${unit}`;
  if (max !== undefined) return `at most ${max}${unit}`;
  return undefined;
}

/** A numeric keyword of the property, if it has that one. */
function bound(p: Property, key: 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems' | 'maxItems'): number | undefined {
  const v = (p as Record<string, unknown>)[key];
  return typeof v === 'number' ? v : undefined;
}

function hintOf(p: Property): string | undefined {
  if (p.type === 'string' && 'format' in p && p.format !== undefined) return FORMAT_HINTS[p.format];
  if (p.type === 'string') return range(bound(p, 'minLength'), bound(p, 'maxLength'), ' characters');
  if (p.type === 'number' || p.type === 'integer') return range(bound(p, 'minimum'), bound(p, 'maximum')) ?? (p.type === 'integer' ? 'a whole number' : 'a number');
  if (p.type === 'array') return range(bound(p, 'minItems'), bound(p, 'maxItems'), ' chosen');
  return undefined;
}

/** The field's choices: `oneOf`/`anyOf` with titles, or `enum` (labelled by the older `enumNames` when given). */
function choicesOf(p: Property): Choice[] | undefined {
  if (p.type === 'array') {
    const items = p.items;
    return 'anyOf' in items ? items.anyOf.map((o) => ({ value: o.const, label: o.title })) : items.enum.map((v) => ({ value: v, label: v }));
  }
  if ('oneOf' in p) return p.oneOf.map((o) => ({ value: o.const, label: o.title }));
  if ('enum' in p) {
    const names = 'enumNames' in p ? p.enumNames : undefined;
    return p.enum.map((v, i) => ({ value: v, label: names?.[i] ?? v }));
  }
  return undefined;
}

function inputOf(p: Property): FieldInput {
  const choices = choicesOf(p);
  if (p.type === 'array') {
    const values = new Set((choices ?? []).map((c) => c.value));
    return { kind: 'multi', choices: choices ?? [], chosen: (p.default ?? []).filter((v) => values.has(v)), cursor: 0 };
  }
  if (choices !== undefined) return { kind: 'choice', choices, index: choices.findIndex((c) => c.value === p.default) };
  if (p.type === 'boolean') return { kind: 'boolean', value: p.default === true };
  if (p.type === 'number' || p.type === 'integer') {
    return { kind: 'number', integer: p.type === 'integer', editor: p.default === undefined ? EMPTY_EDITOR : setValue(String(p.default)) };
  }
  return { kind: 'text', editor: typeof p.default === 'string' ? setValue(p.default) : EMPTY_EDITOR };
}

/** One field's zod type, from the keywords of MCP's restricted schema alone. */
function fieldType(p: Property): z.ZodType {
  const atLeast = <T extends { min(n: number): T }>(t: T, n: number | undefined): T => (n === undefined ? t : t.min(n));
  const atMost = <T extends { max(n: number): T }>(t: T, n: number | undefined): T => (n === undefined ? t : t.max(n));
  const values = choicesOf(p)?.map((c) => c.value) ?? [];
  const oneOf = values.length === 0 ? z.never() : z.enum(values as [string, ...string[]]);
  if (p.type === 'array') return atMost(atLeast(z.array(oneOf), bound(p, 'minItems')), bound(p, 'maxItems'));
  if (choicesOf(p) !== undefined) return oneOf;
  if (p.type === 'boolean') return z.boolean();
  if (p.type === 'number' || p.type === 'integer') return atMost(atLeast(p.type === 'integer' ? z.int() : z.number(), bound(p, 'minimum')), bound(p, 'maximum'));
  const format = 'format' in p ? p.format : undefined;
  // The formats as zod's JSON Schema reader takes them (uri: a URL; date-time: with an offset).
  const text =
    format === 'email' ? z.email() : format === 'uri' ? z.url() : format === 'date' ? z.iso.date() : format === 'date-time' ? z.iso.datetime({ offset: true }) : z.string();
  return atMost(atLeast(text, bound(p, 'minLength')), bound(p, 'maxLength'));
}

/** The name a field goes by in `ElicitationForm.validator`. */
function slot(i: number): string {
  return `f${i}`;
}

export function openForm(request: ElicitationRequest): ElicitationForm {
  const { properties, required = [] } = request.requestedSchema;
  const entries = Object.entries(properties);
  const fields = entries.map(([key, p]): FormField => {
    const hint = hintOf(p);
    return {
      key,
      label: p.title ?? key,
      ...(p.description === undefined ? {} : { description: p.description }),
      required: required.includes(key),
      ...(hint === undefined ? {} : { hint }),
      input: inputOf(p),
    };
  });
  const validator = z.object(Object.fromEntries(entries.map(([, p], i) => [slot(i), fields[i]?.required === true ? fieldType(p) : fieldType(p).optional()])));
  return { server: request.server, message: request.message, fields, focus: 0, validator };
}

export function focused(form: ElicitationForm): FormField | undefined {
  return form.fields[form.focus];
}

/** True when the focused field takes typed text (the cursor keys move in it rather than change a choice). */
export function focusTakesText(form: ElicitationForm): boolean {
  const kind = focused(form)?.input.kind;
  return kind === 'text' || kind === 'number';
}

export function moveFocus(form: ElicitationForm, step: 1 | -1): ElicitationForm {
  const n = form.fields.length;
  return n === 0 ? form : { ...form, focus: (form.focus + step + n) % n };
}

function withFocused(form: ElicitationForm, change: (input: FieldInput) => FieldInput | undefined): ElicitationForm {
  const field = focused(form);
  const input = field && change(field.input);
  if (!field || !input) return form;
  const { error: _dropped, ...rest } = field;
  const fields = form.fields.map((f, i) => (i === form.focus ? { ...rest, input } : f));
  return { ...form, fields };
}

/** Applies a line-editor change to the focused text or number field; other fields are left as they are. */
export function editText(form: ElicitationForm, edit: (editor: EditorState) => EditorState): ElicitationForm {
  return withFocused(form, (input) => (input.kind === 'text' || input.kind === 'number' ? { ...input, editor: edit(input.editor) } : undefined));
}

/** ←/→ on a field without text: the previous or next choice (an optional one passes through "none"), a boolean flipped, a multi-select's highlight moved. */
export function step(form: ElicitationForm, dir: 1 | -1): ElicitationForm {
  const required = focused(form)?.required === true;
  return withFocused(form, (input) => {
    switch (input.kind) {
      case 'boolean':
        return { ...input, value: !input.value };
      case 'choice': {
        const n = input.choices.length;
        if (n === 0) return undefined;
        // Positions -1 (none, optional fields only) .. n-1.
        const low = required ? 0 : -1;
        const span = n - low;
        // A required field with nothing chosen yet: the first press lands on the first (or last) choice.
        if (input.index < low) return { ...input, index: dir === 1 ? 0 : n - 1 };
        return { ...input, index: ((input.index - low + dir + span) % span) + low };
      }
      case 'multi': {
        const n = input.choices.length;
        return n === 0 ? undefined : { ...input, cursor: (input.cursor + dir + n) % n };
      }
      case 'text':
      case 'number':
        return undefined;
    }
  });
}

/** Space on a field without text: a boolean flipped, the highlighted option of a multi-select chosen or not, the next choice. */
export function toggle(form: ElicitationForm): ElicitationForm {
  const input = focused(form)?.input;
  if (input?.kind !== 'multi') return step(form, 1);
  return withFocused(form, () => {
    const value = input.choices[input.cursor]?.value;
    if (value === undefined) return undefined;
    const on = input.chosen.includes(value) ? input.chosen.filter((v) => v !== value) : [...input.chosen, value];
    // In the order the server listed them, whatever order they were picked in.
    return { ...input, chosen: input.choices.map((c) => c.value).filter((v) => on.includes(v)) };
  });
}

/** A number field's text as a number when it reads as one; otherwise the text, which the schema then refuses. */
function numberOf(text: string): number | string {
  const t = text.trim();
  const n = Number(t);
  return t !== '' && Number.isFinite(n) ? n : t;
}

/** The answer as it would be sent: empty text and unchosen fields are left out. */
export function contentOf(form: ElicitationForm): Content {
  // Without a prototype: a field a server calls `__proto__` or `constructor` is a field like any other,
  // neither setting the object's prototype nor reading Object's own members when the answer is checked.
  const content = Object.create(null) as Content;
  for (const { key, input } of form.fields) {
    switch (input.kind) {
      case 'text':
        if (input.editor.value !== '') content[key] = input.editor.value;
        break;
      case 'number':
        if (input.editor.value.trim() !== '') content[key] = numberOf(input.editor.value);
        break;
      case 'boolean':
        content[key] = input.value;
        break;
      case 'choice': {
        const choice = input.choices[input.index];
        if (choice !== undefined) content[key] = choice.value;
        break;
      }
      case 'multi':
        if (input.chosen.length > 0) content[key] = [...input.chosen];
        break;
    }
  }
  return content;
}

/** One line for a refused value: zod's words, except for an empty required field and a number field's wrong kind of value. */
function errorLine(field: FormField, value: unknown, message: string): string {
  if (value === undefined) return 'required';
  const input = field.input;
  if (input.kind === 'number' && (typeof value === 'string' || (input.integer && !Number.isInteger(value)))) return input.integer ? 'enter a whole number' : 'enter a number';
  return message;
}

/**
 * Enter: the answer, if the schema accepts it; otherwise the form with each
 * refused field's error and the focus on the first of them.
 */
export function submit(form: ElicitationForm): { answer: ElicitationAnswer } | { form: ElicitationForm } {
  const content = contentOf(form);
  const values = form.fields.map((f) => (Object.hasOwn(content, f.key) ? content[f.key] : undefined));
  const bySlot = Object.fromEntries(values.flatMap((v, i) => (v === undefined ? [] : [[slot(i), v]])));
  const result = form.validator.safeParse(bySlot);
  if (result.success) return { answer: { action: 'accept', content } };
  const errors = new Map<number, string>();
  for (const issue of result.error.issues) {
    const i = form.fields.findIndex((_, j) => slot(j) === issue.path[0]);
    const field = form.fields[i];
    if (field === undefined || errors.has(i)) continue;
    errors.set(i, errorLine(field, values[i], issue.message));
  }
  const fields = form.fields.map((f, i): FormField => {
    const { error: _old, ...rest } = f;
    const error = errors.get(i);
    return error === undefined ? rest : { ...rest, error };
  });
  const first = fields.findIndex((f) => f.error !== undefined);
  return { form: { ...form, fields, focus: first >= 0 ? first : form.focus } };
}
