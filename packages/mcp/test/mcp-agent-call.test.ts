import { InMemorySessionStore } from '@replan/core';
import { describe, expect, it } from 'vitest';
import { type CallChannel, type CallServices, callAgent } from '../src/server/agent-call.js';
import { servedAgents } from '../src/server/served-agent.js';
import { approvalRunner, type Deployments } from './support/served-runners.js';

const channel: CallChannel = { signal: new AbortController().signal, progress: async () => {}, elicit: undefined };
const textOf = (result: { content: readonly unknown[] }) => (result.content[0] as { text: string }).text;

describe('callAgent: the tokens a long-lived server remembers', () => {
  it('forgets a redeemed token once its call ended (the store refuses it from then on), also after a race', async () => {
    const deployments: Deployments = { count: 0 };
    const agent = servedAgents([approvalRunner(deployments, new InMemorySessionStore())]).get('deployer');
    if (!agent) throw new Error('deployer is not served');
    const services: CallServices = { userId: 'mcp', tokenSecret: 'secret-for-the-test', redeemed: new Set(), maxInputChars: 1000 };
    const first = await callAgent(agent, { input: 'Deploy v2' }, channel, services);
    const { resumeToken } = (first.structuredContent as { inputRequired: { resumeToken: string } }).inputRequired;

    const both = await Promise.all([1, 2].map(() => callAgent(agent, { resumeToken, answer: true }, channel, services)));
    expect(both.map(textOf).sort()).toEqual(['Deployed v2.', 'This resumeToken was already used: each one continues its run once.']);
    expect(services.redeemed.size).toBe(0);

    const again = await callAgent(agent, { resumeToken, answer: true }, channel, services);
    expect(textOf(again)).toMatch(/already used/);
    expect(services.redeemed.size).toBe(0);
    expect(deployments.count).toBe(1);
  });
});
