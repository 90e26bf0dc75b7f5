import { randomUUID } from 'node:crypto';
import type { AgentEvent, Run, Runner, SessionKey, SessionStore } from '@replan/core';
import { APP_PREFIX, USER_PREFIX } from '@replan/core/store-kit';
import { StudioError } from '../errors.js';
import type { SessionChanges } from '../live/session-changes.js';
import type { SessionReader } from '../session-reader.js';
import { initialStateOf } from '../view/state-at.js';

/** The app's runners: by `appName`, or a list (each keyed by its own `appName`). */
export type StudioRunners = Readonly<Record<string, Runner>> | readonly Runner[];

const isShared = (key: string) => key.startsWith(APP_PREFIX) || key.startsWith(USER_PREFIX);

/** A copied event without its `app:`/`user:` writes: a fork must not roll back shared state. */
function withoutSharedWrites(event: AgentEvent): AgentEvent {
  const delta = event.actions?.stateDelta;
  if (!delta || !Object.keys(delta).some(isShared)) return event;
  const kept = Object.fromEntries(Object.entries(delta).filter(([k]) => !isShared(k)));
  return { ...event, actions: { ...event.actions, stateDelta: kept } };
}

/**
 * What the studio does when it has runners: start, resume and fork runs. Runs go on in the
 * background (the page follows them live); `close()` aborts the ones still going.
 */
export class StudioActions {
  private readonly runners = new Map<string, Runner>();
  private readonly running = new Set<Promise<unknown>>();
  private readonly abort = new AbortController();

  constructor(
    private readonly store: SessionStore,
    runners: StudioRunners | undefined,
    private readonly reader: SessionReader,
    private readonly changes: SessionChanges,
  ) {
    const list = Array.isArray(runners) ? (runners as readonly Runner[]) : Object.values(runners ?? {});
    if (!Array.isArray(runners) && runners)
      for (const [app, runner] of Object.entries(runners as Record<string, Runner>))
        if (runner.appName !== app)
          throw new StudioError(
            'configuration',
            `runners["${app}"] is a Runner of app "${runner.appName}": key each runner by its appName.`,
          );
    for (const runner of list) {
      if (runner.sessionStore !== store)
        throw new StudioError(
          'configuration',
          `The runner of app "${runner.appName}" keeps its sessions in another store than the studio's: pass the same store to both (new Runner({ sessionStore: store })).`,
        );
      this.runners.set(runner.appName, runner);
    }
  }

  get apps(): string[] {
    return [...this.runners.keys()];
  }

  private runnerOf(appName: string): Runner {
    const runner = this.runners.get(appName);
    if (!runner)
      throw StudioError.request(
        403,
        `The studio has no runner for app "${appName}": it is read-only there (pass runners to serveStudio, or --runners <module> to replan studio).`,
      );
    return runner;
  }

  /** Starts a run with user input; resolves with its session id once it is going. */
  async start(appName: string, userId: string, input: string, sessionId?: string): Promise<{ sessionId: string }> {
    const runner = this.runnerOf(appName);
    const id = sessionId ?? randomUUID();
    await this.follow({ appName, userId, id }, runner.run({ userId, sessionId: id, input, signal: this.abort.signal }));
    return { sessionId: id };
  }

  /** Answers open interrupts (`values` by interrupt id) or, without values, continues a failed or stopped run. */
  resume(key: SessionKey, values: Readonly<Record<string, unknown>> | undefined): Promise<void> {
    const runner = this.runnerOf(key.appName);
    return this.follow(
      key,
      runner.resume({ userId: key.userId, sessionId: key.id, signal: this.abort.signal, ...(values ? { values } : {}) }),
    );
  }

  /**
   * A new session holding the events up to and including `index`, to run or resume from there.
   * Its `app:`/`user:` writes are left out (those scopes are shared: a fork does not roll them back).
   */
  async fork(key: SessionKey, index: number, newId?: string): Promise<{ sessionId: string }> {
    this.runnerOf(key.appName);
    const session = await this.reader.require(key);
    if (index < 0 || index >= session.events.length)
      throw StudioError.request(400, `Event index ${index} is outside this session (it has ${session.events.length} events).`);
    const events = session.events.slice(0, index + 1).map(withoutSharedWrites);
    const id = newId ?? randomUUID();
    const initial = Object.fromEntries(Object.entries(initialStateOf(session.state, session.events)).filter(([k]) => !isShared(k)));
    await this.store.create(
      { appName: key.appName, userId: key.userId, id, ...(Object.keys(initial).length ? { state: initial } : {}) },
      events,
    );
    this.changes.notify();
    return { sessionId: id };
  }

  /**
   * Follows a run in the background. Resolves once its first event is stored (the page can then
   * open the session); rejects when the run is refused before that (unknown interrupt, busy session).
   */
  private follow(key: SessionKey, run: Run): Promise<void> {
    let started: () => void = () => undefined;
    let refused: (error: unknown) => void = () => undefined;
    const first = new Promise<void>((resolve, reject) => {
      started = resolve;
      refused = reject;
    });
    const done = (async () => {
      try {
        for await (const event of run) {
          if (!event.partial) this.changed(key);
          started();
        }
        started();
      } catch (error) {
        refused(error);
      } finally {
        this.changed(key);
      }
    })();
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
    return first;
  }

  private changed(key: SessionKey): void {
    this.reader.forget(key);
    this.changes.notify();
  }

  /** Aborts the runs still going and waits for them to stop. */
  async close(): Promise<void> {
    this.abort.abort(new Error('The studio is closing.'));
    await Promise.allSettled([...this.running]);
  }
}
