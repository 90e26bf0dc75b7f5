import { z } from 'zod';
import { ReActAgent, Runner, promptCache, tool } from '@replan/core';
import { ScriptedModel, callTools } from '@replan/core/testing';
import { type AuditRow, auditToolCalls } from './audit-tool-calls.js';
import { redactPersonalData } from './redact-personal-data.js';

export const INPUT = 'Find the customer who wrote from ann.lee@example.com and call +1 415 555 0100 back.';

/** A CRM lookup whose result holds personal data too. */
const findCustomer = tool({
  name: 'find_customer',
  description: 'Find a customer by e-mail address',
  parameters: z.object({ email: z.string() }),
  execute: ({ email }) => `Ann Lee <${email}>, phone +1 415 555 0100, customer since 2019`,
});

/**
 * One offline run of an agent with three middleware: personal data redacted before the model,
 * an audit row per tool call, and prompt caching. Returns what the model saw and the audit trail.
 */
export async function middlewareDemo() {
  const audit: AuditRow[] = [];
  // The scripted model asks for the customer by a placeholder, as a model shown only "[email]" would.
  const model = new ScriptedModel({
    responses: [callTools({ name: 'find_customer', args: { email: 'the address in the request' } }), 'Ann Lee is a customer since 2019.'],
  });
  const agent = new ReActAgent({
    name: 'support',
    model,
    tools: [findCustomer],
    instruction: 'Help the support team.',
    middleware: [redactPersonalData(), auditToolCalls((row) => void audit.push(row)), promptCache()],
  });
  const result = await new Runner({ agent, appName: 'middleware-demo' }).run({ userId: 'agent-7', input: INPUT }).result();
  return { result, audit, shownToModel: model.requests.map((r) => JSON.stringify(r.messages)) };
}
