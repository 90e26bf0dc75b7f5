import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The regions of examples/web-chat/next-routes.ts (type-checked by `pnpm typecheck`). */
function regions(source: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of source.matchAll(/\/\/ #region (\w+)\n([\s\S]*?)\/\/ #endregion \1/g))
    found.set(match[1] as string, (match[2] as string).trimEnd());
  return found;
}

describe('docs/ai-sdk.md', () => {
  it('shows the Next.js route handlers exactly as the type-checked example has them', () => {
    const doc = read('docs/ai-sdk.md');
    const blocks = [...doc.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    const code = regions(read('examples/web-chat/next-routes.ts'));
    expect([...code.keys()]).toEqual(['post', 'get']);
    for (const [name, region] of code)
      expect(blocks, `region "${name}" of next-routes.ts is not in docs/ai-sdk.md as written`).toContain(region);
  });
});
