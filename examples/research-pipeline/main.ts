/**
 * A research pipeline composed of parts: a plan–execute agent whose executor calls an MCP
 * server's tools (a paper library this example starts over stdio) and a nested plan–execute agent
 * used as a tool (`agentTool`: a writer that drafts and publishes). Publishing needs a human's
 * approval: the run stops, and a SECOND PROCESS (this script, started again with `--resume`)
 * answers it from the same FileSessionStore directory; the nested step, then the outer call,
 * complete exactly once. Offline: `scriptPlanExecute` plays each agent's planner, executor and replanner.
 * Run: pnpm build && npx tsx examples/research-pipeline/main.ts
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { z } from 'zod';
import { agentTool, FileSessionStore, type Run, type RunResult, Runner, tool, type ToolResultBlock, toolResultsOf } from '@replan/core';
import { type McpToolset, mcpTools } from '@replan/mcp';
import { createPlanExecuteAgent } from '@replan/planexecute';
import { scriptPlanExecute } from '@replan/planexecute/testing';

const APP = 'research';
const published: string[] = []; // the publish side effect, to show it happens once (in the process that runs it)

const DRAFT = 'Draft the report from the notes';
const PUBLISH = 'Publish the report';
const FIND = 'Find papers on tidal power in the library';
const WRITE = 'Have the writer report on them';
/** The text a tool returned (an MCP tool's structured result, or a nested agent's answer). */
const outputOf = (results: readonly ToolResultBlock[]) => {
  const output = results.at(-1)?.output;
  return typeof output === 'string' ? output : JSON.stringify(output);
};

/** The nested agent: drafts a report, then publishes it (publishing waits for approval). */
function writerAgent() {
  const publish = tool({
    name: 'publish',
    description: 'Publishes a report',
    parameters: z.object({ title: z.string(), body: z.string() }),
    needsApproval: true,
    execute: ({ title }) => {
      published.push(title);
      return `published "${title}"`;
    },
  });
  // Scripted by who calls: the second process, resuming after the publish step, gets the answer.
  const script = scriptPlanExecute({
    plan: { steps: [DRAFT, PUBLISH] },
    steps: {
      [DRAFT]: 'Draft: tidal power is predictable and turbines reach 40% capacity.',
      [PUBLISH]: {
        toolCalls: [{ name: 'publish', args: { title: 'Tidal power in 2026', body: 'Tidal power is predictable…' } }],
        text: (results) => `Done: ${outputOf(results)}`,
      },
    },
    replans: [{ steps: [PUBLISH] }],
    answer: 'Published "Tidal power in 2026".',
  });
  return createPlanExecuteAgent({
    name: 'writer',
    description: 'Drafts a report from notes and publishes it',
    model: script.executorModel,
    plannerModel: script.plannerModel,
    executorModel: script.executorModel,
    replannerModel: script.replannerModel,
    tools: [publish],
  });
}

/** The outer agent: finds papers with the MCP library, then hands the notes to the writer. */
function pipelineAgent(library: McpToolset) {
  // The writer runs in a child session of the same store; its answer text is the tool's result.
  const writer = agentTool(writerAgent(), { name: 'write_report', output: (result) => result.output ?? '' });
  const script = scriptPlanExecute({
    plan: { steps: [FIND, WRITE] },
    steps: {
      [FIND]: {
        toolCalls: [
          { name: 'library_search', args: { topic: 'tidal power' } },
          // The abstract of the first paper the search found.
          (results) => {
            const found = results.at(-1)?.output as { papers?: { id: string }[] } | undefined;
            return { name: 'library_fetch_abstract', args: { id: found?.papers?.[0]?.id ?? 'none' } };
          },
        ],
        text: (results) => `Notes: ${outputOf(results)}`,
      },
      [WRITE]: {
        toolCalls: [
          { name: 'write_report', args: { input: 'Write a short report on tidal power from the library notes, and publish it.' } },
        ],
        text: (results) => `Writer: ${outputOf(results)}`,
      },
    },
    replans: [{ steps: [WRITE] }],
    answer: (results) => `Report done. ${results[WRITE]?.replace(/^Writer: /, '') ?? ''}`,
  });
  return createPlanExecuteAgent({
    name: 'pipeline',
    model: script.executorModel,
    plannerModel: script.plannerModel,
    executorModel: script.executorModel,
    replannerModel: script.replannerModel,
    tools: [...library.tools, writer],
  });
}

/** Prints the tool results of a run as they happen, with the path of the agent that got them. */
async function follow(run: Run, who: string): Promise<RunResult> {
  for await (const event of run)
    for (const result of toolResultsOf(event.message))
      console.log(`  [${who}] ${event.path}: ${result.name} → ${JSON.stringify(result.output).slice(0, 80)}`);
  return run.result();
}

const alive = (pid: number | undefined) => {
  try {
    return pid !== undefined && process.kill(pid, 0);
  } catch {
    return false;
  }
};

/** Opens the MCP library (a child process) and a runner over the session files. */
async function open(dir: string) {
  const server = fileURLToPath(new URL('./library-server.mjs', import.meta.url));
  const library = await mcpTools({ stdio: { command: process.execPath, args: [server] } }, { prefix: 'library' });
  const runner = new Runner({ agent: pipelineAgent(library), appName: APP, sessionStore: new FileSessionStore({ dir }) });
  return { library, runner };
}

const [mode, dir, sessionId, interruptId] = process.argv.slice(2);
if (mode === '--resume' && dir && sessionId && interruptId) {
  // The second process: approve the nested publish and finish the run.
  const { library, runner } = await open(dir);
  try {
    const done = await follow(runner.resume({ userId: 'ana', sessionId, values: { [interruptId]: true } }), 'process 2');
    console.log(`  [process 2] resume: ${done.status} — ${done.output}`);
    console.log(`  [process 2] publish ran ${published.length} time(s) here`);
    if (done.status !== 'completed' || published.length !== 1) process.exitCode = 1;
  } finally {
    await library.close();
    await runner.sessionStore.close?.();
  }
} else {
  const work = mkdtempSync(join(tmpdir(), 'replan-research-'));
  const { library, runner } = await open(work);
  try {
    console.log(`MCP server "${library.serverName}" (pid ${library.pid}) offers: ${library.tools.map((t) => t.name).join(', ')}`);
    const stopped = await follow(
      runner.run({ userId: 'ana', sessionId: 'tidal-report', input: 'Research tidal power and publish a short report.' }),
      'process 1',
    );
    const approval = stopped.interrupts[0];
    console.log(
      `process 1: ${stopped.status}; waiting for ${approval?.id} (${approval?.reason} of ${approval?.toolName}, asked by ${approval?.path})`,
    );
    if (stopped.status !== 'interrupted' || !approval) throw new Error('expected the nested publish to wait for approval');
    // Process 1 is done: it lets go of the library server (no orphan left) and of the session files.
    const pid = library.pid;
    await library.close();
    console.log(`process 1: closed the MCP server; pid ${pid} still running: ${alive(pid)}`);
    await runner.sessionStore.close?.();

    // A second process answers the approval from the session files.
    // (Asynchronously: this process stays responsive meanwhile; a failure rejects with its output.)
    const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--resume', work, stopped.sessionId, approval.id];
    const second = await promisify(execFile)(process.execPath, args, { encoding: 'utf8' });
    process.stdout.write(second.stdout);
    process.stderr.write(second.stderr);
    console.log(`process 1: publish ran ${published.length} time(s) here (it ran once, in process 2)`);
  } finally {
    await library.close();
    rmSync(work, { recursive: true, force: true });
  }
}
