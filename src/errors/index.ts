// Every error a user can cause is a CtxError: a stable code, an exit code, a one-line message.
// The CLI prints `ctx: <message>` and exits with `exit`; the library throws them as they are.

export const EXIT = { ok: 0, error: 1, usage: 2, conflict: 3, notFound: 4, integrity: 5, overBudget: 6, refused: 7 } as const;

export class CtxError extends Error {
  readonly code: string = 'CtxError';
  readonly exit: number = EXIT.error;
  readonly hint?: string;
  constructor(message: string, opts: { hint?: string; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.hint = opts.hint;
  }
  toJSON() {
    return { v: 1, error: this.code, message: this.message, exit: this.exit, ...(this.hint ? { hint: this.hint } : {}) };
  }
}

/** A bad argument or option value: unknown format, bad branch name, bad --stop. */
export class UsageError extends CtxError {
  override readonly code = 'UsageError';
  override readonly exit = EXIT.usage;
}

/** A runtime from outside (`ctx-runtime-<name>`) that answered wrong, too late, too much, or not at all. */
export class ProtocolError extends CtxError {
  override readonly code = 'ProtocolError';
}

/** Input bytes that do not parse as the format they claim: broken JSONL, truncated CBOR. */
export class BadInputError extends CtxError {
  override readonly code = 'BadInputError';
}

/** An id, branch, tag, file or store that does not exist. */
export class NotFoundError extends CtxError {
  override readonly code = 'NotFoundError';
  override readonly exit = EXIT.notFound;
}

/** A commit prefix that names more than one commit. */
export class AmbiguousIdError extends CtxError {
  override readonly code = 'AmbiguousIdError';
  readonly candidates: string[];
  constructor(prefix: string, candidates: string[]) {
    super(`ambiguous id ${prefix}: ${candidates.join(', ')}`, { hint: 'give more hex digits' });
    this.candidates = candidates;
  }
}

/** A ref that exists where it must not: fork or import onto an existing branch. */
export class AlreadyExistsError extends CtxError {
  override readonly code = 'AlreadyExistsError';
}

/** The ref moved under us (compare-and-swap failed), or its lock is held. */
export class ConflictError extends CtxError {
  override readonly code = 'ConflictError';
  override readonly exit = EXIT.conflict;
}

/** Stored bytes that do not match what the repo says about them. */
export class IntegrityError extends CtxError {
  override readonly code = 'IntegrityError';
  override readonly exit = EXIT.integrity;
}

/** A secret in an artifact while `ctx.secrets` is `block`: nothing is written. */
export class SecretFoundError extends CtxError {
  override readonly code = 'SecretFoundError';
}

/** A remote that cannot be reached or refused us: transport errors of push, fetch and pull (URL credentials redacted). */
export class RemoteError extends CtxError {
  override readonly code = 'RemoteError';
}

/** `ctx budget`: the context fills more of the window than the threshold allows (the report is printed first). */
export class OverBudgetError extends CtxError {
  override readonly code = 'OverBudgetError';
  override readonly exit = EXIT.overBudget;
}

/** A structured-state write the branch's policy, schema or size limits do not allow: nothing is written. */
export class StateRefusedError extends CtxError {
  override readonly code = 'StateRefusedError';
  override readonly exit = EXIT.refused;
}

/** A structured state in a schema version newer than this build knows: it is not read. */
export class UnsupportedStateError extends CtxError {
  override readonly code = 'UnsupportedStateError';
}

/** A store ctx will not open: tracked by the enclosing git repository, or owned by another user, and not trusted by `ctx.safeStore`. */
export class UntrustedStoreError extends CtxError {
  override readonly code = 'UntrustedStoreError';
}
