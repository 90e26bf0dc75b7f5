import type { AgentEvent } from '../events/agent-event.js';
import { ConcurrentUpdateError, SessionExistsError, SessionNotFoundError } from '../errors/session-errors.js';
import type { Session, SessionKey } from './session.js';
import type {
  AppendOptions,
  CreateSessionInput,
  ListSessionsInput,
  SessionPage,
  SessionStore,
} from './session-store.js';
import { pageSummaries } from './session-paging.js';
import { applyStateActions, eventForStorage } from './apply-state.js';
import { splitStateDelta, stateScopeOf } from './state-scope.js';

interface StoredSession {
  readonly key: SessionKey;
  readonly state: Record<string, unknown>;
  readonly events: AgentEvent[];
  readonly createdAt: number;
  updatedAt: number;
}

const keyOf = (k: SessionKey) => `${k.appName}\u0000${k.userId}\u0000${k.id}`;
const userKeyOf = (k: SessionKey) => `${k.appName}\u0000${k.userId}`;

/**
 * Sessions in this process's memory: the default store, for tests and single-process apps.
 * Stored events are kept by reference and must not be mutated after appending.
 */
export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly appState = new Map<string, Record<string, unknown>>();
  private readonly userState = new Map<string, Record<string, unknown>>();

  async create(input: CreateSessionInput, events: readonly AgentEvent[] = []): Promise<Session> {
    const k = keyOf(input);
    if (this.sessions.has(k)) throw new SessionExistsError(input.id);
    const now = Date.now();
    const stored: StoredSession = {
      key: { appName: input.appName, userId: input.userId, id: input.id },
      state: {},
      events: [],
      createdAt: now,
      updatedAt: now,
    };
    this.applyDelta(stored, input.state);
    this.pushEvents(stored, events);
    this.sessions.set(k, stored);
    return this.view(stored);
  }

  async get(key: SessionKey): Promise<Session | undefined> {
    const stored = this.sessions.get(keyOf(key));
    return stored && this.view(stored);
  }

  async list(input: ListSessionsInput): Promise<SessionPage> {
    const all = [];
    for (const s of this.sessions.values())
      if (s.key.appName === input.appName && s.key.userId === input.userId)
        all.push({ ...s.key, version: s.events.length, createdAt: s.createdAt, updatedAt: s.updatedAt });
    return pageSummaries(all, input.limit, input.cursor);
  }

  async delete(key: SessionKey): Promise<void> {
    this.sessions.delete(keyOf(key));
  }

  async appendEvents(
    key: SessionKey,
    events: readonly AgentEvent[],
    { expectedVersion }: AppendOptions,
  ): Promise<{ version: number }> {
    const stored = this.sessions.get(keyOf(key));
    if (!stored) throw new SessionNotFoundError(key.appName, key.userId, key.id);
    if (stored.events.length !== expectedVersion)
      throw new ConcurrentUpdateError(key.id, expectedVersion, stored.events.length);
    this.pushEvents(stored, events);
    stored.updatedAt = Date.now();
    return { version: stored.events.length };
  }

  private pushEvents(stored: StoredSession, events: readonly AgentEvent[]): void {
    for (const event of events) {
      const clean = eventForStorage(event);
      stored.events.push(clean);
      this.applyDelta(stored, clean.actions?.stateDelta);
      if (clean.actions?.stateAppend)
        applyStateActions(stored.state, { stateAppend: clean.actions.stateAppend }, (k) => stateScopeOf(k) === 'session');
    }
  }

  private applyDelta(stored: StoredSession, delta: Readonly<Record<string, unknown>> | undefined): void {
    if (!delta) return;
    const scoped = splitStateDelta(delta);
    Object.assign(stored.state, scoped.session);
    if (Object.keys(scoped.app).length) this.scopeState(this.appState, stored.key.appName, scoped.app);
    if (Object.keys(scoped.user).length) this.scopeState(this.userState, userKeyOf(stored.key), scoped.user);
  }

  private scopeState(map: Map<string, Record<string, unknown>>, k: string, delta: Record<string, unknown>): void {
    const current = map.get(k) ?? {};
    Object.assign(current, delta);
    map.set(k, current);
  }

  private view(stored: StoredSession): Session {
    return {
      ...stored.key,
      state: {
        ...this.appState.get(stored.key.appName),
        ...this.userState.get(userKeyOf(stored.key)),
        ...stored.state,
      },
      events: stored.events.slice(),
      version: stored.events.length,
    };
  }
}
