// Claude Code's session-wide lines: `{"type":"ai-title","aiTitle"}` (the title it generates),
// `{"type":"custom-title","customTitle"}` (one the user set, shown before the generated one) and
// `{"type":"pr-link","prNumber","prUrl","prRepository"}` (the pull request the session opened).
// The last of each in the bytes wins, as Claude Code reads them.
import type { SessionInfo } from './format.js';

const MARKERS = ['"ai-title"', '"custom-title"', '"pr-link"'];

export function claudeSessionInfo(bytes: Uint8Array): SessionInfo {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  // most artifacts hold none of these lines: no line is parsed for them
  if (!MARKERS.some((m) => text.includes(m))) return {};
  let ai: string | undefined;
  let custom: string | undefined;
  let pr: SessionInfo['pr'];
  for (const line of text.split('\n')) {
    if (!MARKERS.some((m) => line.includes(m))) continue;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (e?.type === 'ai-title' && typeof e.aiTitle === 'string' && e.aiTitle.trim()) ai = e.aiTitle;
    else if (e?.type === 'custom-title' && typeof e.customTitle === 'string' && e.customTitle.trim()) custom = e.customTitle;
    else if (e?.type === 'pr-link' && Number.isSafeInteger(e.prNumber) && typeof e.prUrl === 'string' && /^https?:\/\//.test(e.prUrl) && typeof e.prRepository === 'string')
      pr = { number: e.prNumber as number, url: e.prUrl, repository: e.prRepository };
  }
  const title = custom ?? ai;
  return { ...(title !== undefined ? { title } : {}), ...(pr ? { pr } : {}) };
}
