import { ConfigurationError, ReplanError } from '@replan/core';
import { describe, expect, it } from 'vitest';

// Listed so that a change to the public surface is a visible diff.
describe('public surface of @replan/a2a', () => {
  it('exports a2aServer, a2aAgentTool and their typed errors', async () => {
    expect(Object.keys(await import('@replan/a2a')).sort()).toEqual(['A2aError', 'a2aAgentTool', 'a2aServer']);
  });

  it('its errors are ReplanErrors that name the agent and say what to do', async () => {
    const { A2aError } = await import('@replan/a2a');
    const lost = A2aError.connection('http://127.0.0.1:4000', 'connection refused');
    expect(lost).toBeInstanceOf(ReplanError);
    expect([lost.name, lost.kind, lost.url]).toEqual(['A2aError', 'connection', 'http://127.0.0.1:4000']);
    const failed = A2aError.taskFailed('http://127.0.0.1:4000', 't1', 'failed', 'model down');
    expect(failed.message).toMatch(/task t1 ended failed: model down\. Check the remote agent's logs, or retry/);
    expect([failed.kind, failed.state, failed.taskId]).toEqual(['task_failed', 'failed', 't1']);
  });

  it('refuses wrong options with ConfigurationErrors', async () => {
    const { a2aAgentTool, a2aServer } = await import('@replan/a2a');
    expect(() => a2aServer({} as never)).toThrow(ConfigurationError);
    expect(() => a2aAgentTool('localhost:4000', { name: 'x' })).toThrow(/base URL/);
    expect(() => a2aAgentTool('http://127.0.0.1:4000', {} as never)).toThrow(/pass `name`/);
  });
});
