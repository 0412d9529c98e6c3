// A store git cannot read as it should (a garbage ref, a branch on a blob, a damaged pack, a missing
// parent): an IntegrityError (exit 5) that names what is damaged, never git's raw message.
import { IntegrityError } from '../errors/index.js';
import { shortId } from '../core/ids.js';

const OID = /^[0-9a-f]{40}$/;
const HINT = 'git fsck --full lists what is damaged; restore it from a clone or a backup';

/** How a damaged thing is printed: a commit as `ctx-<12 hex>`, any other object id shortened to 12 hex. */
export function damageLabel(subject: string): string {
  if (OID.test(subject)) return shortId(subject);
  if (/^ctx-[0-9a-f]{40}$/.test(subject)) return shortId(subject.slice(4));
  return subject.replace(/\b([0-9a-f]{12})[0-9a-f]{28}\b/g, '$1');
}

export class StoreDamage extends IntegrityError {
  /**
   * @param subject what is damaged: a commit id (40 hex), a ref (`refs/heads/x`), `packed-refs`, or `object <id>`
   * @param problem what is wrong with it, one line
   */
  constructor(readonly subject: string, readonly problem: string, opts: { cause?: unknown } = {}) {
    super(`${damageLabel(subject)}: ${problem}`, { hint: HINT, cause: opts.cause });
  }
}

/** An object (or `<tree>:<path>` spec) an engine failed to read: its bytes are damaged, not absent. */
export class UnreadableObject extends StoreDamage {
  constructor(readonly spec: string, cause: unknown) {
    super(`object ${spec}`, 'cannot be read, the object store is damaged', { cause });
  }
}

/** `what` quoted for a one-line message: JSON escapes, at most 40 characters. */
export function quoted(what: string): string {
  return JSON.stringify(what.length > 40 ? `${what.slice(0, 40)}…` : what);
}
