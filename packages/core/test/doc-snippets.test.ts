import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// A code block in docs/ preceded by `<!-- snippet: <path> -->` is a copy of code in that file (a
// test or an example, which runs), so a snippet cannot rot silently: when the code changes,
// this test names the block to update. Compared line by line, ignoring indentation and blank lines.
const repo = new URL('../../../', import.meta.url);

/** Pages whose every TypeScript/JavaScript block must be such a copy. */
const CHECKED_PAGES = ['docs/testing.md', 'docs/workflow-agents.md'];
/** Pages with some checked blocks (marked ones only). */
const PAGES = [...CHECKED_PAGES, 'docs/session-stores.md', 'docs/composition.md', 'docs/testing-and-evals.md'];

interface Block {
  readonly page: string;
  readonly line: number;
  readonly lang: string;
  readonly source: string | undefined;
  readonly code: string[];
}

/** The fenced code blocks of a Markdown page, with the snippet source named just before each. */
function codeBlocks(page: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\w*)\s*$/.exec(lines[i] as string);
    if (!open) continue;
    const source = /^\s*<!-- snippet: (\S+) -->\s*$/.exec(lines[i - 1] ?? '')?.[1];
    const start = i;
    const code: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i] as string); i++) code.push(lines[i] as string);
    blocks.push({ page, line: start + 1, lang: open[1] ?? '', source, code });
  }
  return blocks;
}

const significant = (lines: readonly string[]) => lines.map((l) => l.trim()).filter((l) => l.length > 0);

/** True when `snippet`'s lines appear in `source`, consecutively (indentation and blank lines aside). */
function containsSnippet(source: string, snippet: readonly string[]): boolean {
  const haystack = significant(source.split('\n'));
  const needle = significant(snippet);
  if (needle.length === 0) return false;
  for (let i = 0; i + needle.length <= haystack.length; i++) if (needle.every((l, j) => haystack[i + j] === l)) return true;
  return false;
}

const read = (path: string) => readFileSync(new URL(path, repo), 'utf8');

describe('doc snippets', () => {
  it('finds a snippet only when its lines are consecutive in the source', () => {
    const source = 'const a = 1;\n\n  if (a) {\n    run();\n  }\nconst b = 2;';
    expect(containsSnippet(source, ['if (a) {', '  run();', '}'])).toBe(true);
    expect(containsSnippet(source, ['const a = 1;', 'const b = 2;'])).toBe(false);
    expect(containsSnippet(source, ['if (a) {', '  walk();'])).toBe(false);
    expect(containsSnippet(source, [''])).toBe(false);
  });

  it('reads the source named before a block', () => {
    const blocks = codeBlocks('x.md', 'text\n<!-- snippet: a.ts -->\n```ts\nfoo();\n```\n```text\nout\n```');
    expect(blocks.map((b) => ({ source: b.source, lang: b.lang, code: b.code }))).toEqual([
      { source: 'a.ts', lang: 'ts', code: ['foo();'] },
      { source: undefined, lang: 'text', code: ['out'] },
    ]);
  });

  for (const page of CHECKED_PAGES)
    it(`${page}: every code block is copied from a file that runs`, () => {
      const unchecked = codeBlocks(page, read(page)).filter((b) => ['ts', 'js'].includes(b.lang) && !b.source);
      expect(unchecked.map((b) => `${page}:${b.line}`)).toEqual([]);
    });

  for (const page of PAGES)
    it(`${page}: each snippet matches its source`, () => {
      const blocks = codeBlocks(page, read(page)).filter((b) => b.source);
      expect(blocks.length).toBeGreaterThan(0);
      const drifted = blocks.filter((b) => !containsSnippet(read(b.source as string), b.code));
      expect(drifted.map((b) => `${page}:${b.line} is no longer in ${b.source}`)).toEqual([]);
    });
});
