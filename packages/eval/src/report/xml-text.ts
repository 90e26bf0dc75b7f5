// XML 1.0 allows tab, LF, CR and these ranges only; anything else (NUL, escape, lone surrogates) is
// written as a visible escape (NUL as `\u0000`, ESC as `\u001b`) so the file stays well-formed and the character stays readable.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text for an XML attribute value or element content: markup escaped, characters XML forbids made visible. */
export function xmlText(text: string): string {
  return text
    .replace(NOT_XML, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
