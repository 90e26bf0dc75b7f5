import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Tests run against the TypeScript sources: each public entry point (package name or subpath) maps to
 * its source file. Matching is exact, so the order does not matter: a new subpath is one more line.
 */
export const entryPoints: Readonly<Record<string, string>> = {
  '@replan/core': './packages/core/src/index.ts',
  '@replan/core/testing': './packages/core/src/testing/index.ts',
  '@replan/core/agent-kit': './packages/core/src/agent-kit/index.ts',
  '@replan/core/store-kit': './packages/core/src/store-kit/index.ts',
  '@replan/planexecute': './packages/planexecute/src/index.ts',
  '@replan/planexecute/terminal': './packages/planexecute/src/terminal/index.ts',
  '@replan/planexecute/testing': './packages/planexecute/src/testing/index.ts',
  '@replan/providers': './packages/providers/src/index.ts',
  '@replan/postgres': './packages/postgres/src/index.ts',
  '@replan/otel': './packages/otel/src/index.ts',
  '@replan/mcp': './packages/mcp/src/index.ts',
  '@replan/ai-sdk': './packages/ai-sdk/src/index.ts',
  '@replan/a2a': './packages/a2a/src/index.ts',
  '@replan/dbos': './packages/dbos/src/index.ts',
  '@replan/studio': './packages/studio/src/index.ts',
  '@replan/eval/cli': './packages/eval/src/cli/index.ts',
  '@replan/eval': './packages/eval/src/index.ts',
  '@replan/code': './packages/code/src/index.ts',
  '@replan/memory/testing': './packages/memory/src/testing/index.ts',
  '@replan/memory/postgres': './packages/memory/src/postgres/index.ts',
  '@replan/memory': './packages/memory/src/index.ts',
};

const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
export const alias = Object.entries(entryPoints).map(([name, path]) => ({
  find: new RegExp(`^${escapeRegExp(name)}$`),
  replacement: src(path),
}));

/**
 * Tests that start child processes are named `*-processes.test.ts`; they stay out of the fast projects.
 * The two files named next also start one (a live pid, a second writer) beside in-process cases, so they
 * run with them until that case moves to a `*-processes.test.ts` file of its own.
 */
const processTests = [
  'test/**/*-processes.test.ts',
  'test/file-session-store-damage.test.ts',
  'test/file-session-store-shared-state.test.ts',
];

type TestOptions = NonNullable<TestProjectInlineConfiguration['test']>;
const project = (name: string, root: string, test: TestOptions = {}): TestProjectInlineConfiguration => ({
  resolve: { alias },
  test: { name, root: src(root), include: ['test/**/*.test.ts'], testTimeout: 20_000, ...test },
});

/**
 * In-process projects share their workers' module graph (`isolate: false`): each test file starts from fresh
 * objects of its own, never from module state, so isolation only re-imported the same sources once per file,
 * which was most of the fast suite's time.
 */
const inProcess = (name: string, root: string, test: TestOptions = {}) => project(name, root, { isolate: false, ...test });

/** In process, no PostgreSQL: `pnpm test:fast` runs these (and CI runs them on Node 22 and 24 as well). */
export const fastProjects = [
  inProcess('core', './packages/core', { exclude: processTests }),
  inProcess('providers', './packages/providers'),
  inProcess('planexecute', './packages/planexecute', { exclude: ['test/**/*-processes.test.ts'] }),
  inProcess('otel', './packages/otel'),
  inProcess('mcp', './packages/mcp', { exclude: ['test/**/*-processes.test.ts'] }),
  inProcess('ai-sdk', './packages/ai-sdk', { exclude: ['test/**/*.browser.test.ts', 'test/**/*.postgres.test.ts'] }),
  inProcess('a2a', './packages/a2a', { exclude: ['test/**/*-processes.test.ts'] }),
  inProcess('eval', './packages/eval', { exclude: ['test/**/*-processes.test.ts'] }),
  inProcess('code', './packages/code', { exclude: ['test/**/*-processes.test.ts'] }),
  inProcess('memory', './packages/memory', { exclude: ['test/**/*.postgres.test.ts', 'test/**/*-processes.test.ts'] }),
  // The studio's server, views and CLI in process; its browser tests are in `studio-browser`.
  inProcess('studio', './packages/studio', { exclude: ['test/**/*.browser.test.ts'] }),
  // Tests that examples show (e.g. examples/replay-test/replay.test.ts), so they cannot rot.
  inProcess('examples', './examples', { include: ['*/**/*.test.ts'] }),
  // The docs agree with the repository: one package list (packages/*), every example listed, no design or issue citations.
  inProcess('docs', './tests/docs'),
];

/** Child processes, PostgreSQL, installs from outside the repo: only `pnpm test` runs these. */
export const slowProjects = [
  project('core-processes', './packages/core', { include: processTests }),
  // Plan–execute runs killed while a replan undoes dropped steps, resumed in a new process.
  project('planexecute-processes', './packages/planexecute', { include: ['test/**/*-processes.test.ts'], testTimeout: 60_000 }),
  // MCP servers and clients as child processes (stdio), with no orphans left behind.
  project('mcp-processes', './packages/mcp', { include: ['test/**/*-processes.test.ts'] }),
  // `replan eval` spawned as a user runs it (the built packages: `pnpm test` builds first), on files and a throwaway PostgreSQL.
  project('eval-processes', './packages/eval', { include: ['test/**/*-processes.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 }),
  // A2A servers restarted in child processes (resubscribe after a restart).
  project('a2a-processes', './packages/a2a', { include: ['test/**/*-processes.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 }),
  // DBOS workflows on a throwaway PostgreSQL, worker processes killed and stopped.
  project('dbos', './packages/dbos', { testTimeout: 120_000, hookTimeout: 120_000 }),
  // The web-chat page (AI SDK Chat client) in Debian's chromium.
  project('ai-sdk-browser', './packages/ai-sdk', { include: ['test/**/*.browser.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 }),
  project('postgres', './packages/postgres', { testTimeout: 60_000, hookTimeout: 120_000 }),
  // Code steps killed mid-program and resumed in a new process (file store and PostgreSQL).
  project('code-processes', './packages/code', { include: ['test/**/*-processes.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 }),
  // Memory-store writers in several processes on one directory, one killed mid-write.
  project('memory-processes', './packages/memory', { include: ['test/**/*-processes.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 }),
  // Memory stores on a throwaway PostgreSQL (full-text, pgvector when installed).
  project('memory-postgres', './packages/memory', { include: ['test/**/*.postgres.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 }),
  // Resumed UI message streams read from another PostgresSessionStore than the run's, woken by LISTEN/NOTIFY.
  project('ai-sdk-postgres', './packages/ai-sdk', { include: ['test/**/*.postgres.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 }),
  // A real chromium (Debian's, via playwright-core) against the studio; the page script is packages/studio/dist/web (built by `pnpm test`).
  project('studio-browser', './packages/studio', { include: ['test/**/*.browser.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 }),
  // Child processes run the built packages (dist): `pnpm test` builds before vitest runs.
  project('e2e', './tests/e2e', { testTimeout: 120_000, hookTimeout: 120_000 }),
  // Installs the packages into projects in a temp directory, as a user's workspace or npm would.
  project('consumers', './tests/consumers', { testTimeout: 300_000, hookTimeout: 300_000 }),
  // Type tests (packages/*/test/*.test-d.ts): only type-checked, by tsc with tsconfig.type-tests.json.
  {
    test: {
      name: 'types',
      root: src('.'),
      include: [],
      typecheck: { enabled: true, only: true, include: ['packages/*/test/**/*.test-d.ts'], tsconfig: './tsconfig.type-tests.json' },
    },
  },
];

export default [...fastProjects, ...slowProjects];

/**
 * Vitest runs `cores - 1` files at once, which is one on a two-core machine: the suite then used one core.
 * Tests here wait on child processes, PostgreSQL and chromium as much as they compute, so use every core.
 */
export const maxWorkers = Math.max(2, availableParallelism());
