/**
 * Two plan–execute agents over A2A: a `deployer` served with `a2aServer` on 127.0.0.1, and a release
 * manager that delegates to it through `a2aAgentTool`. The deployer's `deploy` tool needs approval: the
 * remote task turns `input-required`, the release manager's run stops on a durable local interrupt (still
 * an approval), and `runner.resume` answers it — the answer reaches the remote task once, and both runs
 * finish. Offline: `scriptPlanExecute` plays every model. Each side keeps its sessions in files.
 * Run: pnpm build && npx tsx examples/a2a/main.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { a2aAgentTool, a2aServer } from '@replan/a2a';
import { FileSessionStore, Runner, tool } from '@replan/core';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const dir = mkdtempSync(join(tmpdir(), 'replan-a2a-example-'));

// The remote agent: plans one step, which deploys (with approval).
let deploys = 0;
const deploy = tool({
  name: 'deploy',
  description: 'Deploys a version to production',
  parameters: z.object({ version: z.string() }),
  needsApproval: true,
  execute: ({ version }) => {
    deploys += 1;
    return `deployed ${version}`;
  },
});
const deployerScript = scriptPlanExecute({
  plan: { steps: ['deploy v2'] },
  steps: { 'deploy v2': { toolCalls: [{ name: 'deploy', args: { version: 'v2' } }], text: 'v2 is deployed' } },
  answer: 'Deployed v2 to production.',
});
const deployer = createPlanExecuteAgent({
  name: 'deployer',
  description: 'Deploys versions to production (asks before it deploys)',
  model: deployerScript.model,
  tools: [deploy],
});
const remoteRunner = new Runner({
  agent: deployer,
  appName: 'deployer',
  sessionStore: new FileSessionStore({ dir: join(dir, 'deployer') }),
});
const endpoint = await a2aServer({ runner: remoteRunner }).listen();
console.log(
  `deployer serving A2A at ${endpoint.url} (card: "${endpoint.card.name}", skills: ${endpoint.card.skills.map((s) => s.id).join(', ')})`,
);

// The local agent: one step that delegates to the remote deployer.
const managerScript = scriptPlanExecute({
  plan: { steps: ['ask the deployer to ship v2'] },
  steps: {
    'ask the deployer to ship v2': {
      toolCalls: [{ name: 'deployer', args: { input: 'Deploy v2 to production.' } }],
      text: 'the deployer shipped v2',
    },
  },
  answer: 'Release done: v2 is in production.',
});
const manager = createPlanExecuteAgent({
  name: 'release_manager',
  description: 'Runs releases',
  model: managerScript.model,
  tools: [a2aAgentTool(endpoint.url, { name: 'deployer', description: 'The deployer agent, over A2A' })],
});
const runner = new Runner({ agent: manager, appName: 'releases', sessionStore: new FileSessionStore({ dir: join(dir, 'manager') }) });

try {
  // 1. The remote approval stops the local run too, as a local interrupt.
  const first = await runner.run({ userId: 'ana', input: 'Ship v2.' }).result();
  const [asked] = first.interrupts;
  if (!asked) throw new Error(`expected the run to ask, it ended ${first.status}`);
  const payload = asked.payload as { agent: string; taskId: string; question: string };
  console.log(`run 1: ${first.status}; ${asked.reason} ${asked.id} asked by the remote task ${payload.taskId}`);
  console.log(`  the deployer asks: ${payload.question.slice(0, 120)}…`);
  console.log(`  deploys so far: ${deploys}`);

  // 2. Approve locally: the answer is forwarded to the remote task, which deploys and answers.
  const done = await runner.resume({ userId: 'ana', sessionId: first.sessionId, values: { [asked.id]: true } }).result();
  console.log(`run 2: ${done.status} — ${done.output}`);
  console.log(`  deploys: ${deploys}`);

  // 3. The same answer again is refused: each question is answered once.
  const again = await runner
    .resume({ userId: 'ana', sessionId: first.sessionId, values: { [asked.id]: true } })
    .result()
    .then(
      () => 'accepted',
      (error: Error) => `refused (${error.name})`,
    );
  console.log(`same answer again: ${again}; deploys: ${deploys}`);
  if (done.status !== 'completed' || deploys !== 1) process.exitCode = 1;
} finally {
  await endpoint.close();
  rmSync(dir, { recursive: true, force: true });
}
