// The calling session, for `current`: the session the runtime that started this server runs. Asked
// at each call, not at start: the runtime may start its MCP servers before its transcript exists.
import { shellSessionOf } from '../api/capture/resolve.js';

/** --session, else $CTX_SESSION, else the runtime whose environment this is (CLAUDE_CODE_SESSION_ID …). */
export async function callingSession(configured: string | undefined, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (configured) return configured;
  if (env.CTX_SESSION) return env.CTX_SESSION;
  return (await shellSessionOf(env))?.session;
}
