import { ReplanError } from '@replan/core';

/**
 * What the studio or the `replan` CLI refuses:
 * - `request`: a request the studio refuses; `status` is the HTTP status it answers with;
 * - `configuration`: the studio was started with options it cannot use (bad host, port, runners);
 * - `usage`: a command line the CLI cannot run; the message says what to type instead (exit code 2).
 */
export type StudioErrorKind = 'request' | 'configuration' | 'usage';

/** The studio or the CLI cannot do what was asked; `kind` says why. The one error class of `@replan/studio`. */
export class StudioError extends ReplanError {
  constructor(
    readonly kind: StudioErrorKind,
    message: string,
    /** The HTTP status the studio answers with (`kind: 'request'`; 500 otherwise). */
    readonly status: number = 500,
  ) {
    super(message);
  }

  /** A request the studio refuses with HTTP `status`. */
  static request(status: number, message: string): StudioError {
    return new StudioError('request', message, status);
  }
}
