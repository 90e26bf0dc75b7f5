import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PriceTable, SessionKey, SessionStore } from '@replan/core';
import { childSessionRoot } from '@replan/core/agent-kit';
import { planExecuteEventKind } from '@replan/planexecute';
import { eventKind } from '@replan/core';
import type { EventDetail, EventPage, RunnerView, StepDetail, StudioInfo } from '../../web/src/wire-types.js';
import type { StudioActions } from '../actions/studio-actions.js';
import { StudioError } from '../errors.js';
import type { SessionChanges } from '../live/session-changes.js';
import { listOpenInterrupts } from '../open-interrupts.js';
import { discoverOwners, type OwnerHints } from '../owners.js';
import type { SessionReader } from '../session-reader.js';
import { byAgent, eventRow, eventView, asText } from '../view/event-views.js';
import { stepToolCalls, storedBreakdown } from '../view/step-usage.js';
import { shownEvent } from '../view/withheld-view.js';
import { planRevisions, stepEvents } from '../view/plan-revisions.js';
import { childSessionDigest } from '../view/child-session-view.js';
import { runHolderOf } from '../view/run-holder.js';
import { sessionDigest } from '../view/session-digest.js';
import { initialStateOf, stateAt } from '../view/state-at.js';
import { sumTokens } from '../view/tokens.js';
import { checkedSessionKey, intOf, requiredString, sessionKeyOf, userKeyOf } from './request-params.js';
import { readJsonBody, sendJson } from './responses.js';

export interface ApiContext {
  readonly store: SessionStore;
  readonly reader: SessionReader;
  readonly actions: StudioActions;
  readonly changes: SessionChanges;
  readonly hints: OwnerHints;
  readonly storeKind: string;
  /** The runners' models, for the page to say which are offline (scripted). */
  readonly runners: readonly RunnerView[];
  /** Prices for the session view's costs (`serveStudio({ prices })`). */
  readonly prices?: PriceTable;
}

const MAX_PAGE = 500;

/** Answers `GET /api/...` (reads). The caller has checked origin and token. */
export async function handleRead(
  ctx: ApiContext,
  route: string,
  query: URLSearchParams,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  switch (route) {
    case 'info': {
      const info: StudioInfo = {
        readOnly: ctx.actions.apps.length === 0,
        runnerApps: ctx.actions.apps,
        runners: ctx.runners,
        storeKind: ctx.storeKind,
        live: ctx.changes.mode,
      };
      return sendJson(response, 200, info);
    }
    case 'owners':
      return sendJson(response, 200, await discoverOwners(ctx.store, ctx.hints, ctx.actions.apps));
    case 'interrupts':
      return sendJson(response, 200, await listOpenInterrupts(ctx.reader, await discoverOwners(ctx.store, ctx.hints, ctx.actions.apps)));
    case 'sessions': {
      const { appName, userId } = userKeyOf(query.get('app'), query.get('user'));
      const limit = intOf(query.get('limit'), 'limit', 50, 1, MAX_PAGE);
      return sendJson(response, 200, await ctx.reader.page(appName, userId, limit, query.get('cursor') || undefined));
    }
    case 'session': {
      const session = await ctx.reader.require(sessionKeyOf(query));
      const get = (key: SessionKey) => ctx.reader.get(key);
      const root = await childSessionRoot(session, get);
      const digest = root ? childSessionDigest(sessionDigest(session, ctx.prices), root) : sessionDigest(session, ctx.prices);
      // The log cannot tell a run still running from one whose process died; its lease can.
      const runner = digest.status === 'running' ? await runHolderOf(ctx.store, session, get) : undefined;
      return sendJson(response, 200, runner === undefined ? digest : { ...digest, runner });
    }
    case 'events': {
      const session = await ctx.reader.require(sessionKeyOf(query));
      const agent = query.get('agent');
      const limit = intOf(query.get('limit'), 'limit', 100, 1, MAX_PAGE);
      const indexed = session.events.map((event, index) => ({ event, index }));
      const byPath = agent ? indexed.filter((e) => byAgent(e.event, agent)) : indexed;
      // The runner's cursor events (where each agent stands, for resume) only on demand.
      const withoutCursors = byPath.filter((e) => eventKind(e.event).kind !== 'cursor');
      const chosen = query.get('cursors') === 'show' ? byPath : withoutCursors;
      // offset -1: the last page (the live tail).
      const last = Math.max(0, chosen.length - limit);
      const asked = intOf(query.get('offset'), 'offset', 0, -1, Number.MAX_SAFE_INTEGER);
      const offset = asked === -1 ? last : Math.min(asked, last);
      const page: EventPage = {
        total: chosen.length,
        cursorEvents: byPath.length - withoutCursors.length,
        offset,
        rows: chosen.slice(offset, offset + limit).map((e) => eventRow(e.event, e.index, session.events)),
      };
      return sendJson(response, 200, page);
    }
    case 'event': {
      const session = await ctx.reader.require(sessionKeyOf(query));
      const index = intOf(query.get('index'), 'index', 0, 0, Math.max(0, session.events.length - 1));
      const event = session.events[index];
      if (!event) throw StudioError.request(404, 'This session has no events.');
      const detail: EventDetail = { view: eventView(event, index, session.events), json: asText(shownEvent(event, session.events)) };
      return sendJson(response, 200, detail);
    }
    case 'step': {
      const session = await ctx.reader.require(sessionKeyOf(query));
      const key = requiredString(query.get('key'), 'key');
      const found = planRevisions(session.events)
        .flatMap((r) => r.steps)
        .reverse()
        .find((s) => s.key === key);
      if (!found) throw StudioError.request(404, `No step "${key}" in this session's plans.`);
      const events = stepEvents(session.events, key);
      const first = events[0]?.event.timestamp ?? 0;
      const lastEvent = events.at(-1)?.event;
      const outcome = lastEvent ? planExecuteEventKind(lastEvent) : undefined;
      const executed = outcome?.kind === 'step-result' ? (outcome.executedStep as { result?: unknown; error?: unknown }) : undefined;
      const result = executed?.error ?? executed?.result;
      const detail: StepDetail = {
        key,
        label: found.label,
        status: found.status,
        events: events.map((e) => eventView(e.event, e.index, session.events)),
        tokens: sumTokens(events.map((e) => e.event)),
        latencyMs: lastEvent ? lastEvent.timestamp - first : 0,
        toolCalls: stepToolCalls(storedBreakdown(session.events), key),
        ...(result !== undefined ? { result: asText(result) } : {}),
      };
      return sendJson(response, 200, detail);
    }
    case 'state': {
      const session = await ctx.reader.require(sessionKeyOf(query));
      const index = intOf(query.get('index'), 'index', 0, 0, Math.max(0, session.events.length - 1));
      return sendJson(response, 200, stateAt(session.events, index, initialStateOf(session.state, session.events)));
    }
    case 'live':
      return streamChanges(ctx, query, request, response);
    default:
      throw StudioError.request(404, `No such API: ${route}.`);
  }
}

/** Server-sent events: one `data: {"version":n}` line per change of the session. */
async function streamChanges(ctx: ApiContext, query: URLSearchParams, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const key = sessionKeyOf(query);
  const session = await ctx.reader.get(key);
  response.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
  const send = (version: number) => response.write(`data: ${JSON.stringify({ version })}\n\n`);
  send(session?.version ?? 0);
  const unsubscribe = ctx.changes.subscribe(key, session?.version ?? 0, send);
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
  heartbeat.unref();
  const stop = () => {
    clearInterval(heartbeat);
    unsubscribe();
  };
  request.on('close', stop);
  response.on('close', stop);
}

/** Answers `POST /api/...` (changes). The caller has checked origin, token and content type. */
export async function handleChange(ctx: ApiContext, route: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readJsonBody(request);
  switch (route) {
    case 'run': {
      const input = requiredString(body.input, 'input');
      const { appName, userId } = userKeyOf(body.app, body.user);
      const sessionId =
        body.sessionId === undefined || body.sessionId === ''
          ? undefined
          : checkedSessionKey(appName, userId, body.sessionId, 'sessionId').id;
      const started = await ctx.actions.start(appName, userId, input, sessionId);
      return sendJson(response, 202, started);
    }
    case 'resume': {
      const key = checkedSessionKey(body.app, body.user, body.id);
      const values = body.values;
      if (values !== undefined && (typeof values !== 'object' || values === null || Array.isArray(values)))
        throw StudioError.request(400, '"values" must be an object of answers by interrupt id.');
      await ctx.actions.resume(key, values as Record<string, unknown> | undefined);
      return sendJson(response, 202, { sessionId: key.id });
    }
    case 'fork': {
      const key = checkedSessionKey(body.app, body.user, body.id);
      const index = intOf(body.index, 'index', -1, 0, Number.MAX_SAFE_INTEGER);
      const newId =
        body.newId === undefined || body.newId === '' ? undefined : checkedSessionKey(key.appName, key.userId, body.newId, 'newId').id;
      return sendJson(response, 201, await ctx.actions.fork(key, index, newId));
    }
    default:
      throw StudioError.request(404, `No such API: ${route}.`);
  }
}
