import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/mcp', () => {
  it('exports mcpTools, mcpServer and their typed errors', async () => {
    expect(Object.keys(await import('@replan/mcp')).sort()).toEqual(['McpError', 'mcpServer', 'mcpTools']);
  });
});
