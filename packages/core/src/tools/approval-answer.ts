/**
 * A human's answer to a `needsApproval` interrupt (`interrupt.reason === 'approval'`): `true` or
 * `false`, or `{ approved, message? }` where `message` tells the model why (e.g. why it was
 * rejected). Give it with `runner.resume({ approvals: { [interrupt.id]: answer } })` (typed) or
 * among `values`; anything else for an approval interrupt is refused before the run resumes.
 */
export type ApprovalAnswer = boolean | { readonly approved: boolean; readonly message?: string };

/** What is wrong with a value given as an approval answer, or `undefined` when it is an `ApprovalAnswer`. */
export function approvalAnswerProblem(value: unknown): string | undefined {
  if (typeof value === 'boolean') return undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `got ${describe(value)}; an approval answer is true, false or { approved: boolean, message?: string }`;
  const { approved, message } = value as { approved?: unknown; message?: unknown };
  if (typeof approved !== 'boolean') return `"approved" must be true or false, got ${describe(approved)}`;
  if (message !== undefined && typeof message !== 'string') return `"message" must be a string, got ${describe(message)}`;
  return undefined;
}

/** True when `value` is an `ApprovalAnswer`. */
export const isApprovalAnswer = (value: unknown): value is ApprovalAnswer => approvalAnswerProblem(value) === undefined;

function describe(value: unknown): string {
  if (value === undefined) return 'undefined';
  const json = JSON.stringify(value);
  return json === undefined ? typeof value : json.length > 60 ? `${json.slice(0, 60)}…` : json;
}
