/**
 * Characters that change how text reads without showing themselves — bidi overrides and
 * isolates (a U+202E can make `gnp.exe` read `exe.png`), zero-width characters, control
 * characters, tag characters, line separators — shown as a visible code such as `⟨U+202E⟩`
 * wherever the studio shows text from a model, a tool, a user or the store. Tab, line feed and
 * carriage return stay as they are, and so does a zero-width joiner inside an emoji sequence.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');
const KEPT = new Set(['\t', '\n', '\r']);
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F/u;

const NAMES: Readonly<Record<number, string>> = {
  173: 'soft hyphen',
  1564: 'Arabic letter mark',
  8203: 'zero-width space',
  8204: 'zero-width non-joiner',
  8205: 'zero-width joiner',
  8206: 'left-to-right mark',
  8207: 'right-to-left mark',
  8234: 'left-to-right embedding',
  8235: 'right-to-left embedding',
  8236: 'pop directional formatting',
  8237: 'left-to-right override',
  8238: 'right-to-left override',
  8288: 'word joiner',
  8294: 'left-to-right isolate',
  8295: 'right-to-left isolate',
  8296: 'first strong isolate',
  8297: 'pop directional isolate',
  65279: 'zero-width no-break space',
};

/** `U+202E` for a character. */
export const codePoint = (char: string): string => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What a hidden character is, for a tooltip. */
export const describeHidden = (char: string): string => {
  const name = NAMES[char.codePointAt(0) ?? 0];
  return `${codePoint(char)}${name ? ` ${name}` : ''}: a character that does not show itself, shown as its code`;
};

/** A zero-width joiner between two emoji parts builds one emoji: it stays. */
const joinsEmoji = (text: string, at: number): boolean =>
  text[at] === '\u200D' && PICTOGRAPHIC.test(text.slice(Math.max(0, at - 2), at)) && PICTOGRAPHIC.test(text.slice(at + 1, at + 3));

/** `text` split into plain runs and the hidden characters to show as codes (in order). */
export function splitHidden(text: string): (string | { readonly hidden: string })[] {
  if (!HIDDEN.test(text)) return [text];
  const parts: (string | { readonly hidden: string })[] = [];
  let plain = '';
  let at = 0;
  for (const match of text.matchAll(HIDDEN_ALL)) {
    const char = match[0];
    if (KEPT.has(char) || joinsEmoji(text, match.index)) continue;
    plain += text.slice(at, match.index);
    if (plain) parts.push(plain);
    plain = '';
    parts.push({ hidden: char });
    at = match.index + char.length;
  }
  plain += text.slice(at);
  if (plain) parts.push(plain);
  return parts;
}

/** `text` with each hidden character written as `⟨U+202E⟩` (its code point): for attributes, options and tooltips (no markup there). */
export function escapeHidden(text: string): string {
  return splitHidden(text)
    .map((p) => (typeof p === 'string' ? p : `⟨${codePoint(p.hidden)}⟩`))
    .join('');
}
