// Reading Claude Code transcript lines as neutral messages: which lines make which message.
import { compact, isRecord, str, type Block, type NeutralMessage } from '../core/neutral.js';

export function isMessage(e: unknown): e is { type: string; message?: { content?: unknown } } {
  const t = (e as { type?: unknown } | null)?.type;
  return t === 'user' || t === 'assistant';
}

/** A message's `content` (a string, or an array of Claude blocks) as neutral blocks: one block per entry it reads, none for the rest. */
export function toBlocks(content: unknown): Block[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b): Block[] => {
    if (!isRecord(b)) return [];
    switch (b.type) {
      case 'text':
        return typeof b.text === 'string' ? [{ type: 'text', text: b.text }] : [];
      case 'thinking':
        return typeof b.thinking === 'string' ? [compact({ type: 'thinking' as const, text: b.thinking, signature: str(b.signature) })] : [];
      case 'image': {
        const s = isRecord(b.source) ? b.source : {};
        return [compact({ type: 'image' as const, media_type: str(s.media_type), data: str(s.data), url: str(s.url) })];
      }
      case 'tool_use':
      case 'server_tool_use':
        return [{ type: 'tool_call', id: String(b.id ?? ''), name: String(b.name ?? ''), input: b.input ?? {} }];
      case 'tool_result':
        return [compact({ type: 'tool_result' as const, call_id: String(b.tool_use_id ?? ''), content: typeof b.content === 'string' ? b.content : toBlocks(b.content ?? ''), is_error: b.is_error === true ? true : undefined })];
      default:
        return []; // redacted_thinking, documents: nothing another runtime can read
    }
  });
}

/**
 * User and assistant lines, in order; other lines (summaries, snapshots, progress) are not messages.
 * Claude Code writes one line per content block: lines of one API message are merged back. `lines`:
 * for each message, the indexes of the entries it was read from.
 */
export function neutralLines(entries: readonly unknown[]): { messages: NeutralMessage[]; lines: number[][] } {
  const out: NeutralMessage[] = [];
  const lines: number[][] = [];
  let lastMessageId: string | undefined;
  for (const [i, e] of entries.entries()) {
    if (!isMessage(e) || !isRecord(e.message)) continue;
    const line = e as unknown as Record<string, unknown>;
    const content = toBlocks(e.message.content);
    const messageId = e.type === 'assistant' ? str((e.message as Record<string, unknown>).id) : undefined;
    const author = line.isSidechain === true ? 'subagent' : undefined;
    const prev = out[out.length - 1];
    if (messageId && messageId === lastMessageId && prev?.role === 'assistant' && prev.author === author) {
      prev.content.push(...content);
      lines[lines.length - 1].push(i);
      continue;
    }
    if (content.length === 0) continue;
    lastMessageId = messageId;
    const role = e.type === 'assistant' ? 'assistant' : content.every((b) => b.type === 'tool_result') ? 'tool' : 'user';
    const ids = compact({ uuid: str(line.uuid), message_id: messageId });
    out.push(compact({ role, author, content, timestamp: str(line.timestamp), ids: Object.keys(ids).length ? ids : undefined }));
    lines.push([i]);
  }
  return { messages: out, lines };
}
