// The CLI's errors and the exit codes scripts can rely on. Every failure the user can cause or meet (a bad flag,
// an error answered by the broker, a broker that cannot be reached) is one of these and ends as one line on
// stderr; anything else is a bug and keeps its stack trace.

export const EXIT = {
  /** Success. */
  ok: 0,
  /** The broker answered an error (unknown topic, invalid config, ...), or some produced records failed. */
  brokerError: 1,
  /** Bad usage: an unknown or missing flag, a malformed value, conflicting actions. */
  usage: 2,
  /** The broker could not be reached (connection refused, unknown host, timeout). */
  unreachable: 3,
  /** A bug in the CLI: the stack trace is printed. */
  internal: 4,
  /** `reassign-partitions --verify`: some reassignment is still in progress (run it again later). */
  inProgress: 5,
  /** Stopped by Ctrl-C (SIGINT) before finishing, as shells report it (128 + 2). */
  interrupted: 130,
} as const;

export const EXIT_CODES_HELP = `Exit codes:
  0    success
  1    the broker answered an error (or some produced records failed)
  2    bad usage (unknown flag, missing or malformed value)
  3    the broker could not be reached
  4    an internal error (a bug: please report the stack trace)
  5    reassign-partitions --verify: a reassignment is still in progress
  130  interrupted (Ctrl-C) before the command finished`;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** An error answered by the broker: its HTTP status and Confluent-style `error_code`. */
export class BrokerError extends CliError {
  constructor(
    message: string,
    readonly status: number,
    readonly errorCode: number | undefined,
  ) {
    super(message, EXIT.brokerError);
  }
}

export class UnreachableError extends CliError {
  constructor(message: string) {
    super(message, EXIT.unreachable);
  }
}

/** Ctrl-C (or SIGTERM) arrived while a request was in flight. */
export class InterruptedError extends CliError {
  constructor() {
    super('interrupted', EXIT.interrupted);
  }
}
