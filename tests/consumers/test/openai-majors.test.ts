import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { command, succeed } from '../../../scripts/release/commands.js';
import { nodeFromRegistry } from '../../../scripts/release/entry-point-project.js';
import { freshDir } from '../../../scripts/release/scratch-dir.js';
import { installTarballs, packTarballs } from '../../../scripts/release/tarballs.js';
import { repoRoot } from '../../../scripts/release/workspace-packages.js';
import { filesUnder } from './support/consumer-app.js';

// `@replan/providers` takes openai 6 (Node 20, the workspace's own: every `pnpm test` runs its suite on it)
// and openai 7 (Node >= 22) as a peer, so an app holds one openai. Here: a fresh npm project with openai 7
// and our tarballs, and the providers' whole wire suite (a fake server on 127.0.0.1, the real client) run
// on Node 24 with that openai 7.
const CONFIG = fileURLToPath(new URL('./support/providers-on-openai.config.ts', import.meta.url));

/** An app that hands its own openai client to OpenAIChatModel: one openai, or its errors are not ours to map. */
const APP = `import { ModelError, userMessage } from '@replan/core';
import { OpenAIChatModel } from '@replan/providers';
import OpenAI from 'openai';
import { VERSION } from 'openai/version';

const client = new OpenAI({ apiKey: 'bad-key', baseURL: process.env.FAKE_OPENAI_URL ?? '', maxRetries: 0 });
const model = new OpenAIChatModel({ model: 'local-model', client });
const error: unknown = await model.generate({ messages: [userMessage('hi')] }).then(() => undefined, (e: unknown) => e);
console.log(JSON.stringify({ node: process.version, openai: VERSION, authentication: error instanceof ModelError && error.kind === 'auth' }));
`;

describe('openai 7: one copy in an npm app, and the providers wire suite on it (Node 24)', () => {
  let root: string;
  let app: string;
  let server: Server;
  let url: string;

  beforeAll(async () => {
    root = await freshDir('openai7');
    const tarballs = await packTarballs(join(root, 'tarballs'), ['@replan/core', '@replan/providers']);
    app = join(root, 'app');
    await mkdir(join(app, 'src'), { recursive: true });
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'openai7-app', private: true, type: 'module' }));
    await writeFile(join(app, 'src/main.ts'), APP);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false, outDir: 'dist', types: ['node'] },
        include: ['src'],
      }),
    );
    // openai 7 declares Node >= 22: npm installs it from this Node 20 with a warning, and it runs on Node 24 below.
    await installTarballs(app, tarballs, { openai: '^7.0.0' });
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }, 300_000);

  afterAll(async () => {
    if (server) await new Promise((r) => server.close(r));
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('installs one openai, the app’s 7, which @replan/providers uses through its peer dependency', async () => {
    const copies = (await filesUnder(join(app, 'node_modules'))).filter((f) => /(^|\/)openai\/package\.json$/.test(f));
    expect(copies).toEqual(['openai/package.json']);
    const { version } = JSON.parse(await readFile(join(app, 'node_modules/openai/package.json'), 'utf8')) as { version: string };
    expect(version).toMatch(/^7\./);
  });

  it('type-checks an app passing its openai 7 client to OpenAIChatModel (TypeScript 5.9, our oldest), and maps its 401 to a ModelError of kind auth on Node 24', async () => {
    await succeed(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', app], app);
    const node = nodeFromRegistry(24);
    const run = await command(node.file, [...node.args, join(app, 'dist/main.js')], app, { FAKE_OPENAI_URL: url });
    expect(run.code, run.output).toBe(0);
    const printed = JSON.parse(run.output.split('\n').find((l) => l.startsWith('{"node"')) ?? '{}') as Record<string, unknown>;
    expect(printed).toMatchObject({ authentication: true });
    expect(String(printed.node)).toMatch(/^v24\./);
    expect(String(printed.openai)).toMatch(/^7\./);
  });

  it('passes the whole @replan/providers wire suite with openai 7 on Node 24', async () => {
    const node = nodeFromRegistry(24);
    const vitest = join(repoRoot, 'node_modules/vitest/vitest.mjs');
    const run = await command(node.file, [...node.args, vitest, 'run', '--config', CONFIG], repoRoot, {
      REPLAN_OPENAI_DIR: app,
      REPLAN_OPENAI_MAJOR: '7',
      NO_COLOR: '1',
    });
    expect(run.code, run.output).toBe(0);
    // The setup file printed which openai and Node the sources used (and failed the run on another major).
    expect(run.output).toMatch(/\[providers-on-openai\] openai 7\.\d+\.\d+ on Node v24\./);
    expect(run.output).toMatch(/Test Files\s+\S*\s*\d+ passed/);
  });
});
