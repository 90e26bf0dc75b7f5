/**
 * From a stored run to an offline replay: a run is recorded into a file store (as production
 * would record it into PostgreSQL), read back, and replayed with no model and no tool side effect —
 * `ReplayModel` answers every agent from the recording, `replayTools` returns the recorded tool
 * results. Then a prompt edit makes the strict replay fail loud, and a `fallback` model continues
 * live from the first difference. The same as a Vitest test: replay.test.ts beside this file.
 * Run: pnpm build && npx tsx examples/replay-test/main.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSessionStore, ReplayError, Runner } from '@replan/core';
import { ReplayModel, replayTools } from '@replan/core/testing';
import { byRole, priceTool, scriptedModels, tripAgent } from './trip-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'replan-replay-example-'));
try {
  // 1. Record: any run on a store is a recording (every model response carries meta.request).
  const live = priceTool();
  const recorder = new Runner({
    agent: tripAgent(scriptedModels(), [live.price]),
    appName: 'trips',
    sessionStore: new FileSessionStore({ dir }),
  });
  const recorded = await recorder.run({ userId: 'ana', input: 'What does the Lisbon trip cost?' }).result();
  console.log(`recorded session ${recorded.sessionId}: ${recorded.status}, "${recorded.output}", price tool ran ${live.calls.length}×`);

  // 2. Pull the stored session (from PostgreSQL: new PostgresSessionStore({ connectionString }).get(...)).
  const session = await new FileSessionStore({ dir }).get({ appName: 'trips', userId: 'ana', id: recorded.sessionId });
  if (!session) throw new Error('the recorded session is missing');

  // 3. Replay offline: one ReplayModel for every role, recorded tool results, no side effects.
  const replayed = priceTool();
  const model = ReplayModel.fromSession(session);
  const replay = await new Runner({
    agent: tripAgent({ planner: model, executor: model, replanner: model }, replayTools(session, [replayed.price])),
    appName: 'trips',
  })
    .run({ userId: 'ana', input: 'What does the Lisbon trip cost?' })
    .result();
  if (replay.output !== recorded.output) throw new Error(`the replay answered "${replay.output}", not "${recorded.output}"`);
  if (replayed.calls.length) throw new Error('a replayed tool ran for real');
  console.log(
    `replayed offline: "${replay.output}" — ${[...model.progress.values()].reduce((n, p) => n + p.served, 0)} recorded answers served, price tool ran 0×`,
  );

  // 4. A prompt edit: strict replay stops at the first request that changed, naming the agent and what differs.
  const strict = ReplayModel.fromSession(session);
  const edited = await new Runner({
    agent: tripAgent(
      { planner: strict, executor: strict, replanner: strict },
      replayTools(session, [priceTool().price]),
      'Round every price.',
    ),
    appName: 'trips',
  })
    .run({ userId: 'ana', input: 'What does the Lisbon trip cost?' })
    .result();
  if (!(edited.error instanceof ReplayError && edited.error.kind === 'mismatch')) throw new Error('the edited prompt was not caught');
  console.log(
    `prompt edit caught at "${edited.error.path}" call #${(edited.error.callIndex ?? 0) + 1}: ${edited.error.differences.join('; ')}`,
  );

  // 5. The same edit with a live fallback: the planner is replayed, the edited steps (and what follows) run live.
  const fallback = ReplayModel.fromSession(session, { fallback: byRole(scriptedModels()) });
  const roles = { planner: fallback, executor: fallback, replanner: fallback };
  const continued = await new Runner({
    agent: tripAgent(roles, replayTools(session, [priceTool().price]), 'Round every price.'),
    appName: 'trips',
  })
    .run({ userId: 'ana', input: 'What does the Lisbon trip cost?' })
    .result();
  const planner = [...fallback.progress].find(([path]) => path.endsWith('/planner'))?.[1];
  console.log(
    `with a fallback: ${continued.status}, "${continued.output}"; planner replayed (${planner?.served}/${planner?.recorded}), live from "${fallback.divergence?.path}"`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
