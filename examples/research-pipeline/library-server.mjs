// A small MCP server (written with the MCP SDK) that the research pipeline starts over stdio:
// a paper library with a search and an abstract lookup. Run by main.ts; not meant to be run by hand.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const papers = [
  { id: 'p1', title: 'Tidal stream turbines at scale', abstract: 'Arrays of 1.5 MW turbines reached a 40% capacity factor.' },
  { id: 'p2', title: 'Predictability of tidal power', abstract: 'Tides are forecast years ahead, unlike wind and sun.' },
];

const server = new McpServer({ name: 'library', version: '1.0.0' });
server.registerTool(
  'search',
  {
    description: 'Searches the paper library by topic.',
    inputSchema: { topic: z.string() },
    outputSchema: { papers: z.array(z.object({ id: z.string(), title: z.string() })) },
  },
  async ({ topic }) => {
    const found = papers.filter(() => /tid/i.test(topic)).map(({ id, title }) => ({ id, title }));
    return { content: [{ type: 'text', text: JSON.stringify({ papers: found }) }], structuredContent: { papers: found } };
  },
);
server.registerTool(
  'fetch_abstract',
  { description: 'The abstract of a paper, by id.', inputSchema: { id: z.string() } },
  async ({ id }) => {
    const paper = papers.find((p) => p.id === id);
    return paper
      ? { content: [{ type: 'text', text: `${paper.title}: ${paper.abstract}` }] }
      : { content: [{ type: 'text', text: `no paper ${id}` }], isError: true };
  },
);
await server.connect(new StdioServerTransport());
