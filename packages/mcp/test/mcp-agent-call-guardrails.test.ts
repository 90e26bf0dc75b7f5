import { type Guardrail, InMemorySessionStore, ReActAgent, Runner, guardrails } from '@replan/core';
import { ScriptedModel, reply } from '@replan/core/testing';
import { describe, expect, it } from 'vitest';
import { type CallChannel, type CallServices, callAgent } from '../src/server/agent-call.js';
import { servedAgents } from '../src/server/served-agent.js';

const channel: CallChannel = { signal: new AbortController().signal, progress: async () => {}, elicit: undefined };
const services = (): CallServices => ({ userId: 'mcp', tokenSecret: 'secret-for-the-test', redeemed: new Set(), maxInputChars: 1000 });
const noCodes: Guardrail = { name: 'no_codes', check: (text) => ({ tripwire: text.includes('XYZZY'), reason: 'leaks a code' }) };

function vault(answer: string) {
  const model = new ScriptedModel({ responses: [reply(answer), reply(answer)] });
  const agent = new ReActAgent({ name: 'vault', model, middleware: [guardrails({ output: [noCodes] })] });
  const served = servedAgents([new Runner({ agent, appName: 'vault', sessionStore: new InMemorySessionStore() })]).get('vault');
  if (!served) throw new Error('vault is not served');
  return served;
}

describe('an MCP tool call whose answer an output guardrail blocked', () => {
  it('returns the block (guardrail and reason), never the answer', async () => {
    const result = await callAgent(vault('The vault code is XYZZY.'), { input: 'What is the code?' }, channel, services());
    expect(JSON.stringify(result)).not.toContain('XYZZY');
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^Blocked by the output guardrail "no_codes": leaks a code\./);
  });

  it('an answer the guardrails pass is the result', async () => {
    const result = await callAgent(vault('The vault is in the cellar.'), { input: 'Where?' }, channel, services());
    expect(result).toEqual({ content: [{ type: 'text', text: 'The vault is in the cellar.' }] });
  });
});
