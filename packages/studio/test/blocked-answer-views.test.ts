import { type Guardrail, InMemorySessionStore, Runner } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { formatSession, renderSession } from '../src/cli/print-session.js';
import { serveStudio, type StudioHandle } from '../src/index.js';
import { rawRequest, tokenOf } from './support/http.js';

let studio: StudioHandle | undefined;
afterEach(async () => {
  await studio?.close();
  studio = undefined;
});

const BLOCK = 'Blocked by the output guardrail "no_codes": leaks a code';
const noCodes: Guardrail = { name: 'no_codes', check: (text) => ({ tripwire: text.includes('XYZZY'), reason: 'leaks a code' }) };

/** A stored plan–execute run whose answer ("... XYZZY ...") the output guardrail blocked. */
async function blockedSession() {
  const scripted = scriptPlanExecute({
    plan: { steps: ['look in the notes'] },
    steps: { 'look in the notes': 'the notes mention a code' },
    answer: 'The vault code is XYZZY.',
  });
  const store = new InMemorySessionStore();
  const agent = createPlanExecuteAgent({ model: scripted.model, guardrails: { output: [noCodes] } });
  const result = await new Runner({ agent, appName: 'vault', sessionStore: store })
    .run({ userId: 'u', sessionId: 's', input: 'code?' })
    .result();
  expect(result.status).toBe('blocked');
  const session = await store.get({ appName: 'vault', userId: 'u', id: 's' });
  if (!session) throw new Error('no session');
  expect(JSON.stringify(session.events)).toContain('XYZZY'); // kept in the log for audit
  return { store, session };
}

async function api(path: string): Promise<string> {
  const url = new URL(studio!.url);
  const response = await rawRequest(`http://127.0.0.1:${url.port}/api/${path}`, { headers: { 'x-replan-token': tokenOf(studio!.url) } });
  expect(response.status).toBe(200);
  return response.body;
}

describe('the studio and `replan show` withhold an answer an output guardrail blocked', () => {
  it('the session view says the block; the timeline and every event detail show no answer text', async () => {
    const { store, session } = await blockedSession();
    studio = await serveStudio({ store });
    const key = 'app=vault&user=u&id=s';
    const digest = await api(`session?${key}`);
    expect(JSON.parse(digest).blocked).toBe(BLOCK);
    const seen = [digest, await api(`events?${key}&limit=500&cursors=show`)];
    for (let index = 0; index < session.events.length; index++) seen.push(await api(`event?${key}&index=${index}`));
    for (const body of seen) expect(body).not.toContain('XYZZY');
    expect(seen.join('\n')).toContain('(answer withheld) Blocked by the output guardrail');
  });

  it('`replan show` and `replan show --events` print the block, not the answer', async () => {
    const { session } = await blockedSession();
    let tree = '';
    await renderSession(session, (text) => {
      tree += text;
    });
    const events = formatSession(session);
    for (const text of [tree, events]) {
      expect(text).not.toContain('XYZZY');
      expect(text).toContain(BLOCK);
    }
  });
});
