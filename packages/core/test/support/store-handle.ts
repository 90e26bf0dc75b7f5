import type { InMemorySessionStore, SessionStore } from '@replan/core';
import type { AppendOptions } from '@replan/core/store-kit';

/**
 * Another handle on the same stored sessions: a different store object, so the runner's
 * in-process claim (per store object) does not see the other runner and the lease decides, as
 * between two processes. `renew` replaces renewLease (to stall or fake a heartbeat).
 */
export function handleOn(
  store: InMemorySessionStore,
  options: { renew?: SessionStore['renewLease']; appends?: { options: AppendOptions; count: number } } = {},
): SessionStore {
  return {
    create: (s, e) => store.create(s, e),
    get: (k) => store.get(k),
    list: (i) => store.list(i),
    delete: (k) => store.delete(k),
    appendEvents: (k, events, o) => {
      if (options.appends) {
        options.appends.options = o;
        options.appends.count++;
      }
      return store.appendEvents(k, events, o);
    },
    acquireLease: (k, o) => store.acquireLease(k, o),
    renewLease: options.renew ?? ((k, l, t) => store.renewLease(k, l, t)),
    releaseLease: (k, l) => store.releaseLease(k, l),
  };
}
