/**
 * Bytes of help text (or tool output) → a string, detecting the encoding.
 * Tools compiled from old C sources, or run under a Chinese or Japanese
 * Windows locale, still print GBK or Shift-JIS; decoding those as UTF-8
 * would hand the model mojibake. Order: BOM, then strict UTF-8, then the
 * legacy CJK encodings that decode without error, scored by how much the
 * result looks like real text, then windows-1252 as the last resort.
 */

export interface Decoded {
  text: string;
  /** The WHATWG label used: utf-8, utf-16le, gbk, shift_jis, euc-kr, big5, windows-1252. */
  encoding: string;
}

/** Very common characters per language: a plausible decode is full of them, mojibake is not. */
const COMMON: Record<string, string> = {
  gbk: '的一是不了在人有我他这个们中来上大为和国地到以说时要就出也得里后自子会家可下而过天去能对小多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老因很给名法间知世什两次使身者被高已亲其进此话常与活正感文件输入出数值算表达式参选项帮助显示版本命令使用默认格式字符串路径计运',
  big5: '的一是不了在人有我他這個們中來上大為和國地到以說時要就出也得裡後自子會家可下而過天去能對小多然於心學麼之都好看起發當沒成只如事把還用第樣道想作種開美總從無情己面最女但現前些所同日手又行意動方期它頭經長兒回位分愛老因很給名法間知世什兩次使身者被高已親其進此話常與活正感檔案輸入出數值算表達式參選項幫助顯示版本命令使用預設格式字串路徑計運',
  'euc-kr': '이다는의에하고을가를지한기로서사도수으어대자리니있해나인그아시정것적부게만보요들일면상주전라과국장여내중우성구경위무제발동학소원신비방마문분세조연용공말화관된없개생데되실거할체유미야계진물옵션명령도움말출력파일입값식계산버전사용기본형',
};

/** Hiragana and katakana: Japanese prose is full of them, and mis-decoded Chinese has none. */
function kanaShare(s: string): number {
  let kana = 0;
  let total = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) continue;
    total++;
    if (c >= 0x3040 && c <= 0x30ff) kana++;
  }
  return total === 0 ? 0 : kana / total;
}

function commonShare(s: string, set: string): number {
  let hit = 0;
  let total = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80 || /\s|\p{P}/u.test(ch)) continue;
    total++;
    if (set.includes(ch)) hit++;
  }
  return total === 0 ? 0 : hit / total;
}

/** Half-width katakana, private use and control characters: signs of a wrong guess. */
function oddShare(s: string): number {
  let odd = 0;
  let total = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0;
    if (c < 0x80) continue;
    total++;
    if ((c >= 0xff61 && c <= 0xff9f) || (c >= 0xe000 && c <= 0xf8ff) || (c >= 0x80 && c < 0xa0)) odd++;
  }
  return total === 0 ? 0 : odd / total;
}

function tryDecode(bytes: Uint8Array, label: string): string | undefined {
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function score(text: string, label: string): number {
  const odd = oddShare(text);
  if (label === 'shift_jis') return kanaShare(text) * 2 + commonShare(text, COMMON.gbk ?? '') * 0.5 - odd * 3;
  return commonShare(text, COMMON[label] ?? '') * 2 - odd * 3;
}

function utf16Guess(bytes: Uint8Array): string | undefined {
  if (bytes.length < 4 || bytes.length % 2 !== 0) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < bytes.length; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const half = bytes.length / 2;
  if (oddZeros > half * 0.4 && evenZeros === 0) return 'utf-16le';
  if (evenZeros > half * 0.4 && oddZeros === 0) return 'utf-16be';
  return undefined;
}

export function decodeHelp(bytes: Uint8Array): Decoded {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  const utf16 = utf16Guess(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), encoding: utf16 };
  const utf8 = tryDecode(bytes, 'utf-8');
  if (utf8 !== undefined) return { text: utf8, encoding: 'utf-8' };
  let best: Decoded | undefined;
  let bestScore = 0.15; // below this, no CJK guess is convincing
  for (const label of ['gbk', 'shift_jis', 'euc-kr', 'big5']) {
    const text = tryDecode(bytes, label);
    if (text === undefined) continue;
    const s = score(text, label);
    if (s > bestScore) {
      best = { text, encoding: label };
      bestScore = s;
    }
  }
  return best ?? { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
}
