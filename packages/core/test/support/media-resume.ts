// A second process for the media tests: resumes a session whose input holds an image, with a
// scripted model, and prints what that model was sent (the SHA-256 of each image's bytes).
// Run: node --import tsx media-resume.ts <dir> <sessionId> <interruptId>
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ReActAgent } from '../../src/agents/react-agent.js';
import { Runner } from '../../src/runner/runner.js';
import { FileSessionStore } from '../../src/sessions/file-session-store.js';
import { ScriptedModel } from '../../src/testing/scripted-model.js';
import { tool } from '../../src/tools/tool.js';

const [dir, sessionId, interruptId] = process.argv.slice(2) as [string, string, string];
const model = new ScriptedModel({ responses: ['a chart'] });
const look = tool({ name: 'look', description: 'looks closer', parameters: z.object({}), needsApproval: true, execute: () => 'looked' });
const runner = new Runner({
  agent: new ReActAgent({ name: 'reader', model, tools: [look] }),
  appName: 'media',
  sessionStore: new FileSessionStore({ dir }),
});
const result = await runner.resume({ userId: 'u', sessionId, approvals: { [interruptId]: true } }).result();
const images = (model.requests[0]?.messages ?? [])
  .flatMap((m) => m.content)
  .flatMap((b) =>
    b.type === 'image' && b.data !== undefined ? [createHash('sha256').update(Buffer.from(b.data, 'base64')).digest('hex')] : [],
  );
process.stdout.write(`${JSON.stringify({ status: result.status, error: result.error?.message, images })}\n`);
