import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a resume token stands for: the session that stopped, and the interrupts it waits on. */
export interface ResumeTicket {
  readonly sessionId: string;
  readonly interruptIds: readonly string[];
}

const MAX_TOKEN_LENGTH = 4096;

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');

/** A token naming the session and its open interrupts, signed so that a caller can neither forge nor alter one. */
export function resumeToken(secret: string, ticket: ResumeTicket): string {
  const payload = Buffer.from(JSON.stringify({ s: ticket.sessionId, i: ticket.interruptIds })).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The ticket of a token this server signed, or `undefined` for anything else (malformed, altered, foreign). */
export function readResumeToken(secret: string, token: string): ResumeTicket | undefined {
  if (token.length > MAX_TOKEN_LENGTH) return undefined;
  const [payload, signature, ...rest] = token.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) return undefined;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const { s, i } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: unknown; i?: unknown };
    if (typeof s !== 'string' || !Array.isArray(i) || !i.every((id) => typeof id === 'string')) return undefined;
    return { sessionId: s, interruptIds: i as string[] };
  } catch {
    return undefined;
  }
}
