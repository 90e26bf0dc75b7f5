import { type ChatModel, messageText, systemMessage, userMessage } from '@replan/core';
import { quotePreamble, quotedBlock, quoteValue } from '@replan/core/agent-kit';
import { z } from 'zod';
import { type CriterionResult, failed, passed } from './criterion-result.js';

/** What the judge must answer: a JSON object. */
const verdictSchema = z.object({
  score: z.number().min(0).max(1),
  pass: z.boolean(),
  reason: z.string(),
});

/** A judge's verdict on an answer. */
export type JudgeVerdict = z.output<typeof verdictSchema>;

/** The instruction the judge model gets (the rubric, the input and the answer follow, quoted as data). */
export const JUDGE_INSTRUCTION = [
  'You grade the answer an AI agent gave to a user, against a rubric.',
  'Reply with one JSON object and nothing else: {"score": <number from 0 to 1>, "pass": <true|false>, "reason": "<one sentence>"}.',
  'score is how well the answer meets the rubric (1 = fully); pass is whether it meets it well enough to ship.',
].join('\n');

/** The judge's JSON, parsed: a fenced ```json block or the outermost object of the reply. */
function parseVerdict(text: string): JudgeVerdict | string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1];
  const candidate = fenced ?? text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  let json: unknown;
  try {
    json = JSON.parse(candidate);
  } catch {
    return `the judge did not reply with JSON (${JSON.stringify(text.slice(0, 120))})`;
  }
  const parsed = verdictSchema.safeParse(json);
  return parsed.success
    ? parsed.data
    : `the judge's verdict is not {score 0..1, pass, reason}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'verdict'} ${i.message}`).join('; ')}`;
}

export interface JudgeRequest {
  readonly model: ChatModel;
  readonly rubric: string;
  readonly input: string;
  readonly answer: string;
  readonly threshold?: number;
  readonly signal?: AbortSignal;
}

/**
 * Asks a chat model whether the answer meets the rubric. The input and the answer are quoted as
 * data (an answer cannot instruct the judge). With `threshold`, the score decides; without, the
 * judge's `pass`. A reply that is no valid verdict, or a judge that fails, fails the criterion.
 */
export async function judgeAnswer(request: JudgeRequest): Promise<CriterionResult> {
  const quoted = quotedBlock(
    [`[user] asked: ${quoteValue(request.input)}`, `[agent] answered: ${quoteValue(request.answer)}`],
    quotePreamble('The question and the answer to grade'),
  );
  let reply: string;
  try {
    const response = await request.model.generate(
      {
        messages: [systemMessage(JUDGE_INSTRUCTION), userMessage(`Rubric:\n${request.rubric}\n\n${quoted}`)],
        responseFormat: {
          name: 'verdict',
          schema: z.toJSONSchema(verdictSchema) as Record<string, unknown>,
          description: 'The grade of the answer against the rubric.',
        },
        settings: { temperature: 0 },
      },
      request.signal ? { signal: request.signal } : {},
    );
    reply = messageText(response.message);
  } catch (error) {
    return failed('answer', `the judge (${request.model.id}) failed: ${(error as Error).message ?? String(error)}`);
  }
  const verdict = parseVerdict(reply);
  if (typeof verdict === 'string') return failed('answer', verdict);
  const pass = request.threshold === undefined ? verdict.pass : verdict.score >= request.threshold;
  const rule = request.threshold === undefined ? '' : ` (threshold ${request.threshold})`;
  const reason = `judge: score ${verdict.score}${rule} — ${verdict.reason}`;
  return pass ? passed('answer', reason, verdict.score) : failed('answer', reason, verdict.score);
}
