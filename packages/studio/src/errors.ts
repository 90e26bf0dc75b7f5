import { ReplanError } from '@replan/core';

/** A request the studio refuses; `status` is the HTTP status it answers with. */
export class StudioRequestError extends ReplanError {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The studio was started with options it cannot use (bad host, port, runners). */
export class StudioConfigurationError extends ReplanError {}

/** A command line the `replan` CLI cannot run; the message says what to type instead. */
export class CliUsageError extends ReplanError {}
