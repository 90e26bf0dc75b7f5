import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../../scripts/release/workspace-packages.js';

/** A file of the repository, as text. */
export const readRepoFile = (path: string): string => readFileSync(join(repoRoot, path), 'utf8');

/** The body of the `## heading` section of a Markdown text (up to the next heading of level 2 or above). */
export function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = lines.findIndex((line, i) => i > start && /^#{1,2} /.test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The first cell of each body row of the Markdown tables in `text`, without its backticks. */
export function firstColumn(text: string): string[] {
  const lines = text.split('\n');
  const isSeparator = (line: string | undefined) => line !== undefined && /^\|\s*:?-/.test(line);
  return lines
    .filter((line, i) => line.startsWith('|') && !isSeparator(line) && !isSeparator(lines[i + 1])) // not a header row
    .map((line) => (line.split('|')[1] ?? '').trim().replace(/^`|`$/g, ''));
}

/** The first fenced block of the given language in a Markdown text. */
export function fencedBlock(markdown: string, language: string): string {
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(markdown);
  if (!match) throw new Error(`no \`\`\`${language} block`);
  return match[1]!;
}

/** The distinct `@replan/<name>` package names mentioned in a text (subpaths such as `/testing` dropped). */
export const packageNamesIn = (text: string): string[] => [...new Set(text.match(/@replan\/[a-z0-9-]+/g) ?? [])].sort();
