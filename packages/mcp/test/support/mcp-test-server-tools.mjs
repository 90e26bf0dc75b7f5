// A real MCP server built with the SDK's McpServer, for the mcpTools tests (stdio script and HTTP server).
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * The test server. Tool effects are appended to `effectsFile` (one line each) so a test can count
 * how many times a call really ran. `onCrash` ends the server in the middle of a call.
 */
export function buildTestServer({ name = 'test-server', effectsFile, onCrash }) {
  const server = new McpServer({ name, version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  const effect = (line) => effectsFile && appendFileSync(effectsFile, `${line}\n`);

  const echo = server.registerTool(
    'echo',
    { description: 'Echoes the text back.', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: 'text', text: `echo: ${text}` }],
    }),
  );
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({ content: [{ type: 'text', text: JSON.stringify({ sum: a + b }) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: { why: z.string() } }, async ({ why }) => ({
    content: [{ type: 'text', text: `cannot do it: ${why}` }],
    isError: true,
  }));
  server.registerTool('picture', { description: 'Returns an image and a resource.' }, async () => ({
    content: [
      { type: 'text', text: 'a picture' },
      { type: 'image', data: Buffer.from('12345678').toString('base64'), mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'the notes' } },
    ],
  }));
  server.registerTool(
    'env',
    { description: 'Says whether an environment variable is set.', inputSchema: { variable: z.string() } },
    async ({ variable }) => ({
      content: [{ type: 'text', text: process.env[variable] === undefined ? 'unset' : `set:${process.env[variable]}` }],
    }),
  );
  server.registerTool(
    'big',
    { description: 'Answers with a text of the given size.', inputSchema: { bytes: z.number() } },
    async ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }),
  );
  server.registerTool(
    'report',
    {
      description: 'A long report of numbered lines, one of them the needle: as text, as structured content, or as a resource part.',
      inputSchema: { lines: z.number(), needle: z.string(), shape: z.enum(['text', 'structured', 'resource']) },
    },
    async ({ lines, needle, shape }) => {
      const rows = Array.from({ length: lines }, (_, i) => (i === Math.floor(lines / 2) ? needle : `row ${i}: nothing of note`));
      if (shape === 'structured') return { content: [{ type: 'text', text: JSON.stringify({ rows }) }], structuredContent: { rows } };
      const text = rows.join('\n');
      if (shape === 'resource')
        return {
          content: [
            { type: 'text', text: 'the report' },
            { type: 'resource', resource: { uri: 'file:///report.txt', text } },
          ],
        };
      return { content: [{ type: 'text', text }] };
    },
  );
  server.registerTool('record', { description: 'Records an effect.', inputSchema: { label: z.string() } }, async ({ label }) => {
    effect(label);
    return { content: [{ type: 'text', text: `recorded ${label}` }] };
  });
  server.registerTool(
    'record_then_crash',
    { description: 'Records an effect, then the server dies.', inputSchema: { label: z.string() } },
    async ({ label }) => {
      effect(label);
      await onCrash?.();
      return new Promise(() => {}); // never answers: the server is gone
    },
  );
  server.registerTool('wait', { description: 'Waits until cancelled.', inputSchema: { label: z.string() } }, async ({ label }, extra) => {
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
    effect(`cancelled ${label}`);
    return { content: [{ type: 'text', text: 'cancelled' }] };
  });
  let lateAdded = false;
  server.registerTool('add_late_tool', { description: 'Adds the tool "late" (list_changed).' }, async () => {
    if (lateAdded) return { content: [{ type: 'text', text: 'already added' }] };
    lateAdded = true;
    server.registerTool('late', { description: 'Added later.', inputSchema: { n: z.number() } }, async ({ n }) => ({
      content: [{ type: 'text', text: `late ${n}` }],
    }));
    return { content: [{ type: 'text', text: 'added' }] };
  });
  server.registerTool('remove_echo', { description: 'Removes the tool "echo" (list_changed).' }, async () => {
    echo.remove();
    return { content: [{ type: 'text', text: 'removed' }] };
  });
  server.registerTool('name/with spaces', { description: 'A name providers reject.' }, async () => ({
    content: [{ type: 'text', text: 'ok' }],
  }));
  return server;
}
