import { describe, expect, it } from 'vitest';
import { sanitiseToolName, ToolNamer } from '../src/client/mcp-tool-names.js';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('MCP tool names', () => {
  it('makes any name one that providers accept', () => {
    expect(sanitiseToolName('files/read file')).toBe('files_read_file');
    expect(sanitiseToolName('')).toBe('tool');
    expect(sanitiseToolName('x'.repeat(100))).toHaveLength(64);
    expect(sanitiseToolName('héllo.wörld')).toMatch(VALID);
  });

  it('gives names that collide after sanitising the server prefix, then a number', () => {
    const namer = new ToolNamer('srv', undefined, () => new Set(['taken']));
    expect(namer.nameOf('a/b')).toBe('a_b');
    expect(namer.nameOf('a_b')).toBe('srv_a_b');
    expect(namer.nameOf('a.b')).toBe('srv_a_b_2');
    expect(namer.nameOf('taken')).toBe('srv_taken');
    // a name once given stays
    expect(namer.nameOf('a_b')).toBe('srv_a_b');
  });

  it('keeps long prefixed names within 64 characters and distinct', () => {
    const long = 'n'.repeat(70);
    const namer = new ToolNamer('server', 'pre', () => new Set([`pre_${long}`.slice(0, 64)]));
    const first = namer.nameOf(long);
    const second = namer.nameOf(`${long}!`);
    for (const name of [first, second]) expect(name).toMatch(VALID);
    expect(first).not.toBe(second);
  });
});
