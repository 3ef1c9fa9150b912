import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeHelp, isParseError, parseHelp } from '../../../src/tools/wasm/index.ts';

/** Real legacy-encoded bytes, produced with `iconv -t GBK` / `-t SHIFT_JIS` / … from UTF-8 help texts. */
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(import.meta.dir, 'fixtures', name)));

describe('decodeHelp', () => {
  test('UTF-8, with and without a byte order mark', () => {
    const bytes = new TextEncoder().encode('calc 1.0\n日本語 ok\n');
    expect(decodeHelp(bytes)).toEqual({ text: 'calc 1.0\n日本語 ok\n', encoding: 'utf-8' });
    expect(decodeHelp(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes]))).toEqual({ text: 'calc 1.0\n日本語 ok\n', encoding: 'utf-8' });
  });

  test('UTF-16 with a BOM and without one', () => {
    const le = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00, 0x1f, 0x00]);
    expect(decodeHelp(le)).toEqual({ text: 'hi\u001f', encoding: 'utf-16le' });
    const noBom = new Uint8Array([...'Usage: x'].flatMap((c) => [c.charCodeAt(0), 0]));
    expect(decodeHelp(noBom)).toEqual({ text: 'Usage: x', encoding: 'utf-16le' });
  });

  test('GBK (simplified Chinese) is decoded, not mangled', () => {
    const d = decodeHelp(fixture('help-zh.gbk.txt'));
    expect(d.encoding).toBe('gbk');
    expect(d.text).toContain('计算算术表达式。');
    expect(d.text).toContain('  -p, --precision <位数>  小数点后的位数 [default: 10]');
  });

  test('Shift-JIS (Japanese) is decoded, not mangled', () => {
    const d = decodeHelp(fixture('help-ja.sjis.txt'));
    expect(d.encoding).toBe('shift_jis');
    expect(d.text).toContain('算術式を安全に計算します。');
    expect(d.text).toContain('<桁数>  小数点以下の桁数を指定します');
  });

  test('EUC-KR and Big5 too', () => {
    const ko = decodeHelp(fixture('help-ko.euckr.txt'));
    expect(ko.encoding).toBe('euc-kr');
    expect(ko.text).toContain('산술식을 안전하게 계산합니다.');
    const tw = decodeHelp(fixture('help-tw.big5.txt'));
    expect(tw.encoding).toBe('big5');
    expect(tw.text).toContain('計算算術表達式。');
  });

  test('Western legacy text falls back to windows-1252', () => {
    const d = decodeHelp(fixture('help-fr.cp1252.txt'));
    expect(d.encoding).toBe('windows-1252');
    expect(d.text).toContain('Convertit les données café, entrée.');
    expect(d.text).toContain('Afficher l’aide');
  });

  test('decoded GBK help parses into a spec with Chinese descriptions', () => {
    const spec = parseHelp(decodeHelp(fixture('help-zh.gbk.txt')).text);
    if (isParseError(spec)) throw new Error(spec.message);
    expect(spec.summary).toBe('计算算术表达式。');
    expect(spec.inputSchema).toEqual({
      type: 'object',
      properties: {
        表达式: { type: 'string', description: '要计算的表达式' },
        precision: { type: 'integer', description: '小数点后的位数', default: 10 },
        模式: { type: 'string', description: '角度单位', enum: ['弧度', '角度'], default: '弧度' },
      },
      required: ['表达式'],
      additionalProperties: false,
    });
  });
});
