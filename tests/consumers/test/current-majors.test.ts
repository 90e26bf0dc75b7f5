import { existsSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumOrSkip, launchChromium } from '../../../packages/ai-sdk/test/support/chromium.js';
import { command, succeed } from '../../../scripts/release/commands.js';
import { nodeFromRegistry } from '../../../scripts/release/entry-point-project.js';
import { freshDir } from '../../../scripts/release/scratch-dir.js';
import { installTarballs, packTarballs } from '../../../scripts/release/tarballs.js';
import { type FakeModelServer, startFakeModelServer } from './support/fake-model-server.js';
import { startServerChild } from './support/server-child.js';

// Today's majors, as a developer starting a project now has them: Node 24 (from the npm registry),
// AI SDK 7 with real provider packages (`@ai-sdk/openai-compatible` and `@ai-sdk/anthropic`, language
// models of specification v4), openai 7, TypeScript 7 type-checking a strict nodenext app that uses our
// tarballs, the latest MCP, A2A and DBOS SDKs, and examples/web-chat served by the app with AI SDK 7's
// `Chat` client in Chromium. The providers talk to one local server that speaks both APIs (see
// support/fake-model-server.ts). One install, one model server, one browser.
const APP = fileURLToPath(new URL('../current-majors/', import.meta.url));
const WEB_CHAT = fileURLToPath(new URL('../../../examples/web-chat/', import.meta.url));
const SCREENSHOT = fileURLToPath(new URL('../../../docs/images/web-chat-ai7.png', import.meta.url));
const examplesPackage = JSON.parse(await readFile(join(WEB_CHAT, '../package.json'), 'utf8')) as { dependencies: Record<string, string> };
const esbuild = examplesPackage.dependencies.esbuild;
if (!esbuild) throw new Error('examples/package.json has no dependency esbuild (examples/web-chat bundles its page with it)');
const MAJORS = {
  ai: '^7.0.0',
  '@ai-sdk/openai-compatible': '^3.0.0',
  '@ai-sdk/anthropic': '^4.0.0',
  typescript: '^7.0.0',
  openai: '^7.0.0',
  // The newest of each (`latest`), so a new release reaches this test first: npm's peer check against our
  // ranges, TypeScript 7 on its declarations and the runs below say what it breaks.
  '@modelcontextprotocol/sdk': 'latest',
  '@a2a-js/sdk': 'latest',
  '@dbos-inc/dbos-sdk': 'latest',
  // examples/web-chat's server bundles its page with esbuild (the version the examples use).
  esbuild,
} as const;
const browserTests = chromiumOrSkip();
/** playwright-core's `Browser` (the package resolves from packages/ai-sdk, not from here). */
type Browser = Awaited<ReturnType<typeof launchChromium>>;

describe('today’s majors: Node 24, AI SDK 7 and TypeScript 7 in a fresh npm project', () => {
  let root: string;
  let app: string;
  let models: FakeModelServer;
  let browser: Browser | undefined;
  /** Node 24's own binary (from the npm registry's `node` package), so a server child can be stopped by its pid. */
  let node24: string;

  beforeAll(async () => {
    root = await freshDir('majors');
    app = join(root, 'app');
    const install = async () => {
      const tarballs = await packTarballs(join(root, 'tarballs'));
      await cp(APP, app, { recursive: true });
      // The example's files, unchanged, beside the app's sources: TypeScript 7 checks them against AI SDK 7.
      for (const file of ['server.ts', 'page.ts', 'trip-agent.ts']) await cp(join(WEB_CHAT, file), join(app, 'src/web-chat', file));
      // `overrides` keeps one openai in the app (`$openai`: the app's own): @replan/providers (openai ^6, for Node 20) uses openai 7.
      await writeFile(
        join(app, 'package.json'),
        JSON.stringify({ name: 'current-majors-app', private: true, type: 'module', overrides: { openai: '$openai' } }),
      );
      // ai 7 and openai 7 declare Node >= 22; npm installs them from this Node 20 with a warning.
      await installTarballs(app, tarballs, MAJORS);
      // TypeScript 7 type-checks and compiles the app with the example (every declaration checked, the SDKs' too);
      // both runs below start what it compiled.
      await succeed(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    };
    const node = nodeFromRegistry(24);
    const findNode = async () => (node24 = (await succeed(node.file, [...node.args, '-p', 'process.execPath'], root)).trim());
    [models, browser] = await Promise.all([startFakeModelServer(), browserTests ? launchChromium() : undefined, install(), findNode()]);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await models?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('installs AI SDK 7, openai 7, TypeScript 7 and the newest MCP, A2A and DBOS SDKs beside our packages, and TypeScript 7 compiled the strict nodenext app', async () => {
    const version = async (name: string) =>
      (JSON.parse(await readFile(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await version('ai')).toMatch(/^7\./);
    expect(await version('@ai-sdk/anthropic')).toMatch(/^4\./);
    expect(await version('typescript')).toMatch(/^7\./);
    expect(await version('openai')).toMatch(/^7\./);
    const newest = ['@modelcontextprotocol/sdk', '@a2a-js/sdk', '@dbos-inc/dbos-sdk'];
    const latest = await Promise.all(newest.map((sdk) => succeed('npm', ['view', sdk, 'version', '--prefer-offline'], app)));
    expect(await Promise.all(newest.map(version))).toEqual(latest.map((v) => v.trim()));
    for (const file of ['main.js', 'web-chat.js', 'web-chat/server.js', 'web-chat/page.js'])
      expect(existsSync(join(app, 'dist', file)), file).toBe(true);
  });

  it('runs plan–execute on Node 24 through AI SDK 7 models (@ai-sdk/openai-compatible, @ai-sdk/anthropic), openai 7, and over MCP and A2A', async () => {
    const main = await command(node24, [join(app, 'dist/main.js')], app, { FAKE_MODEL_URL: models.baseURL });
    expect(main.code, main.output).toBe(0);
    const printed = JSON.parse(main.output.split('\n').find((l) => l.startsWith('{"node"')) ?? '{}') as Record<string, unknown>;
    const done = { status: 'completed', output: 'The sum is 5.', modelCalls: 4 };
    expect(printed).toMatchObject({
      specification: 'v4',
      aiSdk: done,
      anthropicSpecification: 'v4',
      anthropic: done,
      anthropicStreamed: done,
      providers: done,
      mcp: done,
      a2a: done,
      dbos: true,
    });
    expect(String(printed.node)).toMatch(/^v24\./);
    expect(String(printed.openai)).toMatch(/^7\./);
    // Each run: planner, executor (the tool call, then its report) and replanner reached the server, in
    // the API of its model (the streamed Anthropic run asked for SSE). Over MCP and A2A the served
    // agent's whole run comes between the caller's tool call and its report.
    const run = (api: string, tool = 'add', inner: string[] = []) => [
      `${api}: plan`,
      `${api}: ${tool}`,
      ...inner,
      `${api}: ${tool}`,
      `${api}: plan,respond`,
    ];
    expect(models.requests.map((r) => `${r.api}${r.stream ? ' SSE' : ''}: ${[...new Set(r.tools)].sort().join(',')}`)).toEqual([
      ...run('openai'),
      ...run('anthropic'),
      ...run('anthropic SSE'),
      ...run('openai'),
      ...run('openai', 'mcp_add', run('openai')),
      ...run('openai', 'a2a_add', run('openai')),
    ]);
  });

  it.runIf(browserTests)(
    'serves examples/web-chat on Node 24: AI SDK 7’s Chat client in Chromium streams the run, and an approval books exactly once',
    async () => {
      const sessions = join(root, 'web-chat-sessions');
      const server = await startServerChild<{ url: string; node: string }>(node24, [join(app, 'dist/web-chat.js')], app, {
        WEB_CHAT_STORE: sessions,
      });
      try {
        expect(server.ready.node).toMatch(/^v24\./);
        // The page's script is the app's AI SDK 7 bundled by the example's server (its version string is in it).
        const ai = JSON.parse(await readFile(join(app, 'node_modules/ai/package.json'), 'utf8')) as { version: string };
        expect(ai.version).toMatch(/^7\./);
        expect(await (await fetch(`${server.ready.url}/page.js`)).text()).toContain(`"${ai.version}"`);
        const page = await browser!.newPage({ viewport: { width: 900, height: 480 } });
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await page.goto(`${server.ready.url}/?chat=majors-1`);
        await page.getByRole('button', { name: 'Send' }).click();
        // The plan, the search step's result and the approval request arrive through the Chat client.
        await page.getByTestId('approve').waitFor();
        expect(await page.getByTestId('plan').locator('li').allTextContents()).toEqual(['find flights to Lisbon', 'book the best flight']);
        expect(await page.locator('[data-tool="book_flight"]').textContent()).toContain('waiting for your approval');

        await page.getByTestId('approve').click();
        await page.getByTestId('answer').waitFor();
        await page.locator('body[data-status="ready"]').waitFor();
        expect(await page.getByTestId('answer').textContent()).toBe(
          'Your flight TP1351 to Lisbon on Friday at 09:05 is booked (seat 14C).',
        );
        const steps = page.locator('[data-testid="step"]');
        expect(await steps.evaluateAll((all) => all.map((s) => s.getAttribute('data-status')))).toEqual(['done', 'done']);
        // The booking step reports what the tool returned.
        expect(await steps.nth(1).textContent()).toContain('Booked TP1351, seat 14C.');
        expect(await page.locator('[data-tool="book_flight"]').getAttribute('data-state')).toBe('output-available');
        expect(await page.locator('[data-tool="book_flight"]').textContent()).toContain(
          'done: {"flight":"TP1351","seat":"14C","status":"confirmed"}',
        );
        expect(await page.getByTestId('assistant').count()).toBe(1);
        expect(errors).toEqual([]);
        await page.screenshot({ path: SCREENSHOT, fullPage: true });

        // Exactly one booking in the session the app stored (read with the app's own @replan/core).
        const core = (await import(join(app, 'node_modules/@replan/core/dist/index.js'))) as typeof import('@replan/core');
        const session = await new core.FileSessionStore({ dir: sessions }).get({
          appName: 'web-chat',
          userId: 'demo-user',
          id: 'majors-1',
        });
        const bookings = (session?.events ?? [])
          .flatMap((e) => (e.message?.role === 'tool' ? e.message.content : []))
          .filter((b) => b.type === 'tool_result' && b.name === 'book_flight' && !b.isError);
        expect(bookings).toHaveLength(1);
      } finally {
        await server.stop();
      }
    },
  );
});
