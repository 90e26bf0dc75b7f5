// A second process for the media tests: resumes a session whose input holds an image, from
// PostgreSQL, with a scripted model, and prints the SHA-256 of each image that model was sent.
// It runs the built packages (dist), as a deployed worker does: `pnpm test` builds them first.
// Run: node --import tsx media-resume.ts <connectionString> <schema> <sessionId> <interruptId>
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ReActAgent, Runner, tool } from '@replan/core';
import { ScriptedModel } from '@replan/core/testing';
import { PostgresSessionStore } from '@replan/postgres';

const [connectionString, schema, sessionId, interruptId] = process.argv.slice(2) as [string, string, string, string];
const store = new PostgresSessionStore({ connectionString, schema });
const model = new ScriptedModel({ responses: ['a chart'] });
const look = tool({ name: 'look', description: 'looks closer', parameters: z.object({}), needsApproval: true, execute: () => 'looked' });
const runner = new Runner({ agent: new ReActAgent({ name: 'reader', model, tools: [look] }), appName: 'media', sessionStore: store });
const result = await runner.resume({ userId: 'u', sessionId, approvals: { [interruptId]: true } }).result();
await store.close();
const images = (model.requests[0]?.messages ?? [])
  .flatMap((m) => m.content)
  .flatMap((b) =>
    b.type === 'image' && b.data !== undefined ? [createHash('sha256').update(Buffer.from(b.data, 'base64')).digest('hex')] : [],
  );
process.stdout.write(`${JSON.stringify({ status: result.status, error: result.error?.message, images })}\n`);
