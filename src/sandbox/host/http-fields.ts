/**
 * wasi:http `fields` (headers and trailers): names are case-insensitive,
 * values are bytes, order is kept. Response headers are immutable.
 */

export type HeaderError = { tag: 'invalid-syntax' } | { tag: 'forbidden' } | { tag: 'immutable' };

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Hop-by-hop and routing headers the host sets itself; a guest may not. */
const FORBIDDEN = new Set(['host', 'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'content-length']);

const latin1 = new TextDecoder('latin1');

export class Fields {
  private list: [string, Uint8Array][] = [];
  private immutable = false;

  static fromList(entries: [string, Uint8Array][]): Fields {
    const f = new Fields();
    for (const [name, value] of entries) f.append(name, value);
    return f;
  }

  /** Host-made, immutable (response headers). */
  static frozen(entries: [string, string][]): Fields {
    const f = new Fields();
    const enc = new TextEncoder();
    f.list = entries.map(([n, v]) => [n.toLowerCase(), enc.encode(v)]);
    f.immutable = true;
    return f;
  }

  private check(name: string): string {
    if (this.immutable) throw { tag: 'immutable' } satisfies HeaderError;
    if (!TOKEN.test(name)) throw { tag: 'invalid-syntax' } satisfies HeaderError;
    const lower = name.toLowerCase();
    if (FORBIDDEN.has(lower)) throw { tag: 'forbidden' } satisfies HeaderError;
    return lower;
  }

  get(name: string): Uint8Array[] {
    const lower = name.toLowerCase();
    return this.list.filter(([n]) => n === lower).map(([, v]) => v);
  }
  has(name: string): boolean {
    const lower = name.toLowerCase();
    return this.list.some(([n]) => n === lower);
  }
  set(name: string, values: Uint8Array[]): void {
    const lower = this.check(name);
    this.list = this.list.filter(([n]) => n !== lower);
    for (const v of values) this.list.push([lower, v.slice()]);
  }
  delete(name: string): void {
    const lower = this.check(name);
    this.list = this.list.filter(([n]) => n !== lower);
  }
  append(name: string, value: Uint8Array): void {
    this.list.push([this.check(name), value.slice()]);
  }
  entries(): [string, Uint8Array][] {
    return this.list.map(([n, v]) => [n, v]);
  }
  clone(): Fields {
    const f = new Fields();
    f.list = this.entries();
    return f;
  }
  /** As [name, value] strings, for the request that goes out. */
  toStrings(): [string, string][] {
    return this.list.map(([n, v]) => [n, latin1.decode(v)]);
  }
  freeze(): void {
    this.immutable = true;
  }
}
