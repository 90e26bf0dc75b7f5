import { z } from 'zod';
import { isSpecialMatcher } from '../matchers/arg-matcher.js';

const RUN_STATUSES = ['completed', 'interrupted', 'max_iterations', 'aborted', 'failed', 'budget_exceeded', 'blocked'] as const;

/** A value `mismatch` can compare with: plain JSON, RegExps, functions and `arg` matchers, nested. */
function isMatcher(value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (value === null || ['string', 'number', 'boolean', 'function'].includes(typeof value)) return true;
  if (value instanceof RegExp || isSpecialMatcher(value)) return true;
  if (Array.isArray(value)) return value.every((item) => isMatcher(item, depth + 1));
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value as object).every((item) => isMatcher(item, depth + 1));
  return false;
}

const isChatModel = (value: unknown) =>
  typeof value === 'object' && value !== null && typeof (value as { generate?: unknown }).generate === 'function';
const chatModel = z.custom<object>(isChatModel, { message: 'must be a ChatModel (an object with generate())' });
const share = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const positive = z.number().nonnegative('must be 0 or more');
const nonEmpty = z.string().trim().min(1, 'must not be empty');

const matcherRecord = z.custom<object>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && isMatcher(value),
  { message: 'must be an object of matchers (values, RegExps, functions, arg.any(...), arg.ignore) or "ignore"' },
);

const trajectory = z.strictObject({
  mode: z.enum(['exact', 'in-order', 'any-order'], { message: 'must be "exact", "in-order" or "any-order"' }),
  calls: z.array(z.strictObject({ name: nonEmpty, args: z.union([z.literal('ignore'), matcherRecord]).optional() })),
});

const plan = z.strictObject({
  includes: z.array(z.union([z.string(), z.instanceof(RegExp)]), { message: 'must be a list of strings or RegExps' }).optional(),
  maxSteps: z.number().int('must be a whole number').nonnegative('must be 0 or more').optional(),
  maxReplans: z.number().int('must be a whole number').nonnegative('must be 0 or more').optional(),
});

const judge = z.strictObject({
  judge: z.strictObject({ rubric: nonEmpty, model: chatModel.optional(), threshold: share.optional() }),
});

const answer = z.union([z.string(), z.instanceof(RegExp), z.custom<() => unknown>((v) => typeof v === 'function'), judge], {
  message: 'must be a string, a RegExp, a function of the answer, or { judge: { rubric } }',
});

const expectations = z
  .strictObject({
    trajectory: trajectory.optional(),
    plan: plan.optional(),
    answer: answer.optional(),
    status: z.enum(RUN_STATUSES, { message: `must be one of ${RUN_STATUSES.join(', ')}` }).optional(),
    maxCost: positive.optional(),
    maxLatencyMs: positive.optional(),
  })
  .refine((e) => Object.values(e).some((v) => v !== undefined), {
    message: 'expects nothing: give at least one of trajectory, plan, answer, status, maxCost, maxLatencyMs',
  });

const input = z.union(
  [
    z.string(),
    z.array(z.looseObject({ type: z.string() })),
    z.looseObject({ role: z.literal('user'), content: z.array(z.looseObject({ type: z.string() })) }),
  ],
  { message: 'must be text, a user message or content blocks' },
);

/** An image or file block: its full check (media type, base64, blob id) is the run's, which names the block. */
const NOT_MEDIA = 'must be an image or a file block (imageFromFile, imageFromBytes, fileFromPath, …)';
const attachment = z.looseObject(
  { type: z.enum(['image', 'file'], { message: NOT_MEDIA }), mediaType: z.string({ message: 'must be a media type such as "image/png"' }) },
  { message: NOT_MEDIA },
);

const evalCase = z.strictObject({
  name: nonEmpty,
  input,
  attachments: z.array(attachment).optional(),
  sessionId: nonEmpty.optional(),
  state: z.record(z.string(), z.unknown()).optional(),
  userId: nonEmpty.optional(),
  passRate: share.optional(),
  expect: expectations,
});

const evalSet = z.strictObject({
  name: nonEmpty,
  cases: z.array(evalCase).min(1, 'has no cases: add at least one'),
  judge: chatModel.optional(),
  userId: nonEmpty.optional(),
  passRate: share.optional(),
});

type ParsedSet = z.output<typeof evalSet>;

function where(path: readonly PropertyKey[], set: unknown): string {
  let text = 'set';
  let node: unknown = set;
  for (const key of path) {
    text += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
    node = (node as Record<PropertyKey, unknown> | undefined)?.[key];
    // A case is easier to find by its name than by its index.
    if (typeof key === 'number' && text === `set.cases[${key}]`) {
      const name = (node as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string' && name.trim()) text = `case "${name}"`;
    }
  }
  return text;
}

/** Every problem of an eval set, each as `<where>: <what to fix>`; empty when it can run. */
export function evalSetProblems(set: unknown): string[] {
  const parsed = evalSet.safeParse(set);
  if (!parsed.success) return parsed.error.issues.map((issue) => `${where(issue.path, set)}: ${issue.message}`);
  return crossCaseProblems(parsed.data);
}

/** What one case alone cannot tell: duplicate names, judges without a model. */
function crossCaseProblems(set: ParsedSet): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of set.cases) {
    if (seen.has(c.name))
      problems.push(`case "${c.name}": the name is used twice; case names must be unique (they name the report's rows)`);
    seen.add(c.name);
    const answer = c.expect.answer;
    if (typeof answer === 'object' && !(answer instanceof RegExp) && !answer.judge.model && !set.judge)
      problems.push(`case "${c.name}": expect.answer.judge has no model; give defineEvalSet({ judge }) or expect.answer.judge.model`);
  }
  return problems;
}
