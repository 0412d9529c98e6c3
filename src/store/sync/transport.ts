// How refs and objects travel to and from a remote: the git binary when it is on PATH (every URL
// kind), else isomorphic-git over HTTP(S). Both are loaded only when a sync command runs.
import { RemoteError } from '../../errors/index.js';
import { gitOnPath } from '../engine-select.js';
import type { Engine } from '../engine.js';
import type { RefStore } from '../refs.js';
import { checkRemote, redact, urlKind, type Remote } from './remotes.js';
import type { Transport, TransportOptions } from './transport-interface.js';

export type { FetchRejection, PushGlob, PushResult, PushUpdate, Transport, TransportOptions } from './transport-interface.js';

export async function openTransport(gitdir: string, remote: Remote, engine: Engine, refStore: RefStore, opts: TransportOptions): Promise<Transport> {
  checkRemote(remote);
  if (gitOnPath(opts.env)) {
    const { createGitTransport } = await import('./git-transport.js');
    return createGitTransport(gitdir, remote, opts);
  }
  const kind = urlKind(remote.url);
  if (kind !== 'https' && kind !== 'http') {
    throw new RemoteError(`remote ${remote.name} is a ${kind} URL (${redact(remote.url)}): without the git binary on PATH only http(s) remotes work`, {
      hint: 'install git, or use an https:// URL',
    });
  }
  const { createIsogitTransport } = await import('./isogit-transport.js');
  return createIsogitTransport(gitdir, remote, engine, refStore, opts);
}
