/**
 * The JavaScript that sets up a program's world inside QuickJS, before the program runs. It is
 * one function expression: called once with the host's three functions (never made global), the
 * frozen clock, the random seed and the tool names; it returns `[start, settle]`.
 *
 * - `tools.<name>(args)`: the arguments go to the host as a JSON string (made here with the
 *   `JSON.stringify` captured now, so a program that replaces it fools only itself); the host
 *   answers through `settle(id, envelope)` with `{ ok, value | error }` as JSON. An error result
 *   rejects the call with a `ToolError` whose message is the result's text.
 * - An unknown tool name is a `TypeError` naming the tools there are.
 * - `console.log/info/warn/error` send one line each to the host.
 * - Determinism (a program re-runs on resume and must make the same calls): `Date` is frozen at
 *   the code call's time, `Math.random` is a PRNG seeded from the code call's id, and
 *   `WeakRef`/`FinalizationRegistry` (which depend on the collector) are removed.
 * - The return value is sent as JSON (`undefined` as `null`); a function, symbol, BigInt,
 *   non-finite number or cycle anywhere in it is an error, not silently dropped.
 */
export const PRELUDE = `(function (hostCall, hostLog, hostFinish, frozenNow, seed, namesJson) {
  'use strict';
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const names = parse(namesJson);
  const strict = function (key, value) {
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint' || (type === 'number' && !isFinite(value)))
      throw new TypeError((key === '' ? 'the value' : 'the value at key "' + key + '"') + ' is ' +
        (type === 'number' ? String(value) : 'a ' + type) + ', which JSON cannot hold');
    return value;
  };
  const errorText = function (error) {
    try {
      if (error instanceof Error) return String(error.name) + ': ' + String(error.message);
      return 'thrown value: ' + (typeof error === 'string' ? error : stringify(error));
    } catch (e) {
      return 'thrown value that cannot be shown';
    }
  };
  class ToolError extends Error {
    constructor(message) { super(message); this.name = 'ToolError'; }
  }
  const pending = Object.create(null);
  let nextId = 0;
  const call = function (name, args) {
    return new Promise(function (resolve, reject) {
      let json;
      try { json = stringify(args === undefined ? {} : args, strict); }
      catch (e) { reject(new TypeError('the arguments of tools.' + name + ' are not JSON: ' + errorText(e))); return; }
      const id = nextId++;
      pending[id] = { resolve: resolve, reject: reject };
      hostCall(name, json, id);
    });
  };
  const table = Object.create(null);
  for (const name of names) table[name] = function (args) { return call(name, args); };
  Object.freeze(table);
  const tools = new Proxy(table, {
    get: function (target, key) {
      if (typeof key === 'string' && !(key in target) && key !== 'then')
        throw new TypeError('unknown tool "' + key + '": the tools are ' + (names.length ? names.join(', ') : 'none'));
      return target[key];
    },
  });
  const show = function (value) {
    if (typeof value === 'string') return value;
    try { const json = stringify(value); return json === undefined ? String(value) : json; } catch (e) { return String(value); }
  };
  const line = function () { const parts = []; for (let i = 0; i < arguments.length; i++) parts.push(show(arguments[i])); hostLog(parts.join(' ')); };
  const console = Object.freeze({ log: line, info: line, warn: line, error: line, debug: line });

  const RealDate = Date;
  class FrozenDate extends RealDate {
    constructor() { if (arguments.length === 0) super(frozenNow); else super(...arguments); }
    static now() { return frozenNow; }
  }
  globalThis.Date = FrozenDate;
  let s = seed >>> 0;
  Math.random = function () {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  delete globalThis.WeakRef;
  delete globalThis.FinalizationRegistry;

  const start = function (program) {
    program(tools, console).then(
      function (value) {
        let json;
        try { json = value === undefined ? 'null' : stringify(value, strict); }
        catch (e) { hostFinish(false, 'the program returned a value that is not JSON: ' + errorText(e), 'non-json'); return; }
        hostFinish(true, json, '');
      },
      function (error) { hostFinish(false, errorText(error), 'thrown'); },
    );
  };
  const settle = function (id, envelope) {
    const waiting = pending[id];
    delete pending[id];
    const answer = parse(envelope);
    if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(new ToolError(answer.error));
  };
  return [start, settle];
})`;
