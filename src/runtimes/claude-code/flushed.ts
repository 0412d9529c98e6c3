// Claude Code writes its transcript in the background: lines are queued and flushed every 100 ms
// (2.1.x), so a Stop hook can run before the turn's last assistant line is in the file. Captured
// then, the turn's commit would end one line early and its answer would open the next commit. The
// hook input's `last_assistant_message` says what that line holds: the hook waits for it, bounded.
import { statSync } from 'node:fs';
import { tailLines, waitUntil } from '../../api/capture/tail.js';

/** The longest a hook waits for the line. */
const FLUSH_WAIT_MS = 5_000;
/** A file that has not changed for this long has nothing queued: Claude Code flushes every 100 ms. */
const QUIET_MS = 1_000;

/** The text of an assistant message as Claude Code's hook input gives it: its text blocks, joined by newlines, trimmed. */
function assistantText(content: unknown): string | null {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const b of content) if (b !== null && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string') texts.push((b as { text: string }).text);
  return texts.join('\n').trim();
}

/**
 * Whether the transcript's last message (its last user or assistant line: the lines of other types
 * after it are passed over) is an assistant line holding `text`, within the file's last `window` bytes.
 */
function holdsLastMessage(file: string, text: string, window: number): boolean {
  const lines = tailLines(file, window);
  if (lines === null) return false;
  // the last element follows the last newline: a line still being written
  for (let i = lines.length - 2; i >= 0; i--) {
    let e: { type?: unknown; message?: { content?: unknown } };
    try {
      e = JSON.parse(lines[i]);
    } catch {
      return false;
    }
    if (e === null || typeof e !== 'object') return false;
    if (e.type === 'user') return false;
    if (e.type === 'assistant') return assistantText(e.message?.content) === text;
  }
  return false;
}

/** Size and modification time: what changes when Claude Code flushes. */
function stamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return '';
  }
}

/**
 * Waits until the transcript holds the turn's last assistant message, at most FLUSH_WAIT_MS, and no
 * longer than QUIET_MS once the file stops changing (a message the transcript never holds costs a
 * second, not five).
 */
export async function flushed(file: string, text: string): Promise<void> {
  // the window holds the line whatever its other blocks: the text's JSON, twice, and room for the rest
  const window = 64 * 1024 + 2 * Buffer.byteLength(JSON.stringify(text));
  let last = stamp(file);
  let quietSince = Date.now();
  const quiet = () => {
    const s = stamp(file);
    if (s !== last) [last, quietSince] = [s, Date.now()];
    return Date.now() - quietSince >= QUIET_MS;
  };
  await waitUntil(() => holdsLastMessage(file, text, window), FLUSH_WAIT_MS, quiet);
}
