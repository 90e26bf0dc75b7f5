import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// Tests run against the TypeScript sources: each package name resolves to its src entry.
const alias = {
  '@replan/core/testing': src('./packages/core/src/testing/index.ts'),
  '@replan/core': src('./packages/core/src/index.ts'),
  '@replan/planexecute': src('./packages/planexecute/src/index.ts'),
  '@replan/providers': src('./packages/providers/src/index.ts'),
  '@replan/postgres': src('./packages/postgres/src/index.ts'),
};

const project = (name: string, extra: Record<string, unknown> = {}, root = `./packages/${name}`) => ({
  resolve: { alias },
  test: {
    name,
    root: src(root),
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    ...extra,
  },
});

export default defineConfig({
  test: {
    projects: [
      project('core'),
      project('providers'),
      project('planexecute'),
      project('postgres', { testTimeout: 60_000, hookTimeout: 120_000 }),
      // Child processes run the built packages (dist): `pnpm test` builds before vitest runs.
      project('e2e', { testTimeout: 120_000, hookTimeout: 120_000 }, './tests/e2e'),
      // Type tests (packages/*/test/*.test-d.ts): only type-checked, by tsc with tsconfig.type-tests.json.
      {
        test: {
          name: 'types',
          root: src('.'),
          include: [],
          typecheck: { enabled: true, only: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.type-tests.json' },
        },
      },
    ],
  },
});
