import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a resume token stands for: the session that stopped, the interrupts it waits on, and whose session it
 * is (the tool, app and user it was issued for), so that another tool of the same server cannot redeem it.
 */
export interface ResumeTicket {
  readonly sessionId: string;
  readonly interruptIds: readonly string[];
  readonly toolName: string;
  readonly appName: string;
  readonly userId: string;
}

/** A signed token this server cannot use: an older format (it named no tool), or issued for another tool, app or user. */
export type TicketRefusal = { readonly kind: 'outdated' } | { readonly kind: 'other-owner'; readonly toolName: string };

const MAX_TOKEN_LENGTH = 4096;

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** A token naming the session, its open interrupts and its owner, signed so that a caller can neither forge nor alter one. */
export function resumeToken(secret: string, ticket: ResumeTicket): string {
  const fields = { s: ticket.sessionId, i: ticket.interruptIds, t: ticket.toolName, a: ticket.appName, u: ticket.userId };
  const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/**
 * The ticket of a token this server signed for `owner`; a refusal for a signed token it cannot use here; or
 * `undefined` for anything else (malformed, altered, foreign).
 */
export function readResumeToken(
  secret: string,
  token: string,
  owner: Pick<ResumeTicket, 'toolName' | 'appName' | 'userId'>,
): ResumeTicket | TicketRefusal | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const [payload, signature, ...rest] = token.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let fields: { s?: unknown; i?: unknown; t?: unknown; a?: unknown; u?: unknown };
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof fields !== 'object' || fields === null) return undefined;
  const { s, i, t, a, u } = fields;
  if (typeof s !== 'string' || !Array.isArray(i) || !i.every((id) => typeof id === 'string')) return undefined;
  // Tokens signed before they named their owner would resume the session on any tool: never honoured.
  if (typeof t !== 'string' || typeof a !== 'string' || typeof u !== 'string') return { kind: 'outdated' };
  if (t !== owner.toolName || a !== owner.appName || u !== owner.userId) return { kind: 'other-owner', toolName: t };
  return { sessionId: s, interruptIds: i as string[], toolName: t, appName: a, userId: u };
}

/** Whether `read` is a refusal rather than a ticket. */
export const isRefusal = (read: ResumeTicket | TicketRefusal): read is TicketRefusal => 'kind' in read;
