// The SDK's own Client, connected to a served endpoint (never an imitation of one).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

/** A client; with `onElicit`, it declares the elicitation capability and answers with it. */
export function newClient(onElicit?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>): Client {
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: onElicit ? { elicitation: { form: {} } } : {} });
  if (onElicit) client.setRequestHandler(ElicitRequestSchema, (request) => onElicit(request));
  return client;
}

/** A client connected over Streamable HTTP with the bearer token. */
export async function httpClient(url: string, token: string, onElicit?: Parameters<typeof newClient>[0]): Promise<Client> {
  const client = newClient(onElicit);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** The text of a tool result's first content block. */
export const textOf = (result: object): string =>
  ('content' in result ? (result.content as { text?: string }[]) : undefined)?.[0]?.text ?? '';
