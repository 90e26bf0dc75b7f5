import type { AgentCard, AgentSkill } from '@a2a-js/sdk';
import type { Agent } from '@replan/core';
import type { A2aCardOptions, A2aSkill } from './card-options.js';

const skillOf = (skill: A2aSkill): AgentSkill => ({
  id: skill.id,
  name: skill.name,
  description: skill.description,
  tags: [...(skill.tags ?? [])],
  examples: [...(skill.examples ?? [])],
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
  securityRequirements: [],
});

/** The agent card served at `/.well-known/agent-card.json`: JSON-RPC at `url`, streaming, a bearer scheme when a token is required. */
export function agentCard(agent: Agent, options: A2aCardOptions, url: string, bearer: boolean): AgentCard {
  const skills = options.skills ?? [{ id: agent.name, name: agent.name, description: agent.description, tags: ['replan'] }];
  return {
    name: options.name ?? agent.name,
    description: options.description ?? agent.description,
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: options.provider ? { ...options.provider } : undefined,
    version: options.version ?? '0.1.0',
    ...(options.documentationUrl === undefined ? {} : { documentationUrl: options.documentationUrl }),
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: bearer
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: { description: 'The token the server was given.', scheme: 'Bearer', bearerFormat: '' },
            },
          },
        }
      : {},
    securityRequirements: bearer ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: skills.map(skillOf),
    signatures: [],
  };
}
