import { type Interrupt, isApprovalAnswer, type Message, type Run, type RunResult, type Session } from '@replan/core';
import { answerMedia } from './answer-media.js';
import { type AgentCallResult, errorResult, finishedResult, inputRequiredResult } from './call-results.js';
import { interruptQuestion } from './interrupt-elicitation.js';
import { isRefusal, readResumeToken, resumeToken, type TicketRefusal } from './resume-token.js';
import type { ServedAgent } from './served-agent.js';

/** What the MCP request gives a call: cancellation, progress and (when the client supports it) elicitation. */
export interface CallChannel {
  readonly signal: AbortSignal;
  /** Sends a progress notification (a no-op when the client sent no progress token). */
  progress(progress: number, message: string): Promise<void>;
  /** Asks the user through MCP elicitation; `undefined` when the client did not declare the capability. */
  readonly elicit:
    | ((
        message: string,
        requestedSchema: Record<string, unknown>,
      ) => Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }>)
    | undefined;
}

/** What every call of one server shares. */
export interface CallServices {
  readonly userId: string;
  readonly tokenSecret: string;
  /**
   * The tokens of resumed runs in flight in this process: a second call with one is refused even before the
   * store shows the answers (each entry is dropped when its call ends, when the store shows them).
   */
  readonly redeemed: Set<string>;
  /** The longest task a call may pass, in characters (`input`, or the declared parameters as JSON). */
  readonly maxInputChars: number;
}

/** The arguments of a call, as the tool's input schema declares them. */
export const CALL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    input: { type: 'string', description: 'The task for the agent.' },
    resumeToken: { type: 'string', description: 'From an input-required result: continues that run.' },
    answer: { description: 'With resumeToken: the answer to the one open question.' },
    answers: { type: 'object', description: 'With resumeToken: answers by interrupt id, when several are open.' },
  },
} as const;

/** The arguments that continue a run; a tool with declared parameters takes them beside its own. */
const RESUME_ARGUMENTS = {
  resumeToken: CALL_INPUT_SCHEMA.properties.resumeToken,
  answer: CALL_INPUT_SCHEMA.properties.answer,
  answers: CALL_INPUT_SCHEMA.properties.answers,
};

/** The tool's input schema: `{ input }`, or the agent's declared parameters (with the resume arguments beside them). */
export function callInputSchema(agent: ServedAgent): Record<string, unknown> {
  if (!agent.parameters) return CALL_INPUT_SCHEMA;
  const declared = agent.parameters.jsonSchema;
  const properties = (declared.properties ?? {}) as Record<string, unknown>;
  // Required parameters stay required for a new run only: a call with a resumeToken carries none of them.
  const { required: _required, ...rest } = declared;
  return { ...rest, type: 'object', properties: { ...properties, ...RESUME_ARGUMENTS } };
}

/** The meta key plan–execute agents tag their events with, and the tag of a finished step. */
const PLAN_EXECUTE_META = 'planExecute';

type Args = Readonly<Record<string, unknown>>;

/** The plan's name for a finished step: its id (graph plans), its number in the plan (linear), else the count in this call. */
const stepLabel = (meta: Readonly<Record<string, unknown>> | undefined, counted: number): string =>
  typeof meta?.stepId === 'string'
    ? meta.stepId
    : typeof meta?.stepNumber === 'number' && meta.stepNumber > 0
      ? String(meta.stepNumber)
      : String(counted);

/** Runs (or resumes) the agent for one tool call, until it finishes or waits on input nobody can give now. */
export async function callAgent(agent: ServedAgent, args: Args, channel: CallChannel, services: CallServices): Promise<AgentCallResult> {
  const started = startRun(agent, args, channel, services);
  if (typeof started === 'string') return errorResult(started);
  const run = await started;
  if (typeof run === 'string') return errorResult(run);
  try {
    return await driveCall(agent, run, channel, services);
  } finally {
    // Once the resumed run has ended, its answers are in the store, which refuses the token from then on
    // (and lets it be used again if nothing was written): the set only needs the tokens of calls in flight.
    if (typeof args.resumeToken === 'string') services.redeemed.delete(args.resumeToken);
  }
}

/** Follows the run to its end, asking the user by elicitation (when the client can) each time it stops on a question. */
async function driveCall(agent: ServedAgent, first: Run, channel: CallChannel, services: CallServices): Promise<AgentCallResult> {
  let run = first;
  let steps = 0;
  let answer: Message | undefined;
  for (;;) {
    for await (const event of run) {
      // The answer is the root's final (a nested agent's final is a step's, not the call's answer).
      if (event.actions?.final && !event.partial && !event.path.includes('/')) answer = event.message;
      if (event.partial || event.meta?.[PLAN_EXECUTE_META] !== 'step-result') continue;
      steps += 1;
      await channel.progress(steps, `${agent.name}: step ${stepLabel(event.meta, steps)} done`);
    }
    const result = await run.result();
    if (result.status !== 'interrupted') {
      const key = { appName: agent.runner.appName, userId: services.userId, id: result.sessionId };
      const media = result.status === 'completed' ? await answerMedia(answer, agent.runner, key) : [];
      return finishedResult(result, agent.outputSchema !== undefined, media);
    }
    const values = channel.elicit ? await askUser(result.interrupts, channel) : undefined;
    if (values === undefined) return waitForAnswer(agent, result, services);
    run = agent.runner.resume({ userId: services.userId, sessionId: result.sessionId, values, signal: channel.signal });
  }
}

/** A new run for `input`, or the resumed run a token names; a string says why the call is refused. */
function startRun(agent: ServedAgent, args: Args, channel: CallChannel, services: CallServices): string | Promise<Run | string> {
  const { input, resumeToken: token } = args;
  if (token !== undefined) {
    if (typeof token !== 'string') return 'resumeToken must be the string an input-required result gave.';
    return resumeRun(agent, token, args, channel, services);
  }
  if (agent.parameters) {
    const { answer: _answer, answers: _answers, ...own } = args;
    const parsed = agent.parameters.parse(own);
    if (!parsed.ok) return `Invalid arguments for ${agent.name}: ${parsed.issues}. Fix them and call again.`;
    const text = JSON.stringify(parsed.value);
    if (text.length > services.maxInputChars) return `The arguments are over ${services.maxInputChars} characters as JSON: shorten them.`;
    return Promise.resolve(agent.runner.run({ userId: services.userId, input: text, signal: channel.signal }));
  }
  if (typeof input !== 'string' || input.trim() === '')
    return `Pass "input": the task for ${agent.name}, as a non-empty string (or "resumeToken" and "answer" to continue a run that asked for input).`;
  if (input.length > services.maxInputChars) return `"input" is over ${services.maxInputChars} characters: shorten it.`;
  return Promise.resolve(agent.runner.run({ userId: services.userId, input, signal: channel.signal }));
}

async function resumeRun(
  agent: ServedAgent,
  token: string,
  args: Args,
  channel: CallChannel,
  services: CallServices,
): Promise<Run | string> {
  const ticket = readResumeToken(services.tokenSecret, token, ownerOf(agent, services));
  if (!ticket)
    return `This resumeToken was not issued by this server for ${agent.name}: pass the token of an input-required result, unchanged.`;
  if (isRefusal(ticket)) return refusalText(agent, ticket);
  const values = answersOf(ticket.interruptIds, args);
  if (typeof values === 'string') return values;
  if (services.redeemed.has(token)) return ALREADY_USED;
  // Taken before the store is read, so that two calls racing with one token cannot both pass; given back
  // when the call is refused (the store goes on refusing a token whose answers it holds).
  services.redeemed.add(token);
  const problem = await ticketProblem(agent, ticket.sessionId, values, services.userId);
  if (problem !== undefined) {
    services.redeemed.delete(token);
    return problem;
  }
  return agent.runner.resume({ userId: services.userId, sessionId: ticket.sessionId, values, signal: channel.signal });
}

/** Whose sessions a token redeemed on `agent` may resume: that tool's, in its runner's app, for this server's user. */
const ownerOf = (agent: ServedAgent, services: CallServices) => ({
  toolName: agent.name,
  appName: agent.runner.appName,
  userId: services.userId,
});

function refusalText(agent: ServedAgent, refusal: TicketRefusal): string {
  if (refusal.kind === 'outdated')
    return `This resumeToken comes from an older version of this server and can no longer be redeemed: call "${agent.name}" again with "input" to start the task anew.`;
  return refusal.toolName === agent.name
    ? `This resumeToken was issued for "${agent.name}" of another app or user: pass it where it was issued.`
    : `This resumeToken was issued for the tool "${refusal.toolName}", not "${agent.name}": call "${refusal.toolName}" with it.`;
}

const ALREADY_USED = 'This resumeToken was already used: each one continues its run once.';

/** Why the answers cannot resume the session now, or `undefined` when they can. */
async function ticketProblem(
  agent: ServedAgent,
  sessionId: string,
  values: Record<string, unknown>,
  userId: string,
): Promise<string | undefined> {
  const session = await agent.runner.sessionStore.get({ appName: agent.runner.appName, userId, id: sessionId });
  if (!session) return 'The run this resumeToken continues no longer exists.';
  const open = openInterrupts(session);
  for (const [id, value] of Object.entries(values)) {
    const reason = open.get(id);
    if (reason === undefined) return ALREADY_USED;
    if (reason === 'approval' && !isApprovalAnswer(value))
      return `"${id}" asks for an approval: answer true, false or { "approved": boolean, "message"?: string }.`;
  }
  return undefined;
}

/** The resume values a call carries: `answer` for one open interrupt, `answers` by id for several. */
export function answersOf(ids: readonly string[], args: Args): Record<string, unknown> | string {
  if (args.answers !== undefined) {
    const answers = args.answers;
    if (typeof answers !== 'object' || answers === null || Array.isArray(answers))
      return '"answers" must be an object: { <interrupt id>: <answer> }.';
    const missing = ids.filter((id) => !Object.hasOwn(answers, id));
    if (missing.length > 0) return `"answers" lacks an answer for ${missing.map((id) => `"${id}"`).join(', ')}.`;
    return Object.fromEntries(ids.map((id) => [id, (answers as Record<string, unknown>)[id]]));
  }
  if (!('answer' in args)) return 'Pass "answer" with the resumeToken: the answer to the question the input-required result asked.';
  if (ids.length !== 1) return `The run waits on ${ids.length} questions: pass "answers" by interrupt id instead of "answer".`;
  return { [ids[0] as string]: args.answer };
}

/** The interrupts the session's log asked and never answered: id → reason. */
function openInterrupts(session: Session): Map<string, string> {
  const open = new Map<string, string>();
  for (const event of session.events) {
    if (event.actions?.interrupt) open.set(event.actions.interrupt.id, event.actions.interrupt.reason);
    for (const id of Object.keys(event.actions?.resumeValues ?? {})) open.delete(id);
  }
  return open;
}

/** Asks each open question by elicitation; `undefined` as soon as one is left unanswered. */
async function askUser(interrupts: readonly Interrupt[], channel: CallChannel): Promise<Record<string, unknown> | undefined> {
  // Null prototype: an interrupt id "__proto__" is a key like any other.
  const values: Record<string, unknown> = Object.create(null);
  for (const interrupt of interrupts) {
    const question = interruptQuestion(interrupt);
    let reply: Awaited<ReturnType<NonNullable<CallChannel['elicit']>>> | undefined;
    try {
      reply = await channel.elicit?.(question.message, question.requestedSchema);
    } catch {
      // A reply that does not fit the form, no answer in time, a client gone: the question stays open,
      // and the call ends with a resume token so that an answer can still reach it.
      return undefined;
    }
    const value = reply && question.answer(reply.action, reply.content);
    if (value === undefined) return undefined;
    values[interrupt.id] = value;
  }
  return values;
}

function waitForAnswer(agent: ServedAgent, result: RunResult, services: CallServices): AgentCallResult {
  const token = resumeToken(services.tokenSecret, {
    sessionId: result.sessionId,
    interruptIds: result.interrupts.map((i) => i.id),
    ...ownerOf(agent, services),
  });
  return inputRequiredResult(agent.name, token, result.interrupts);
}
