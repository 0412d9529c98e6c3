// Gemini CLI's names in a context store: its formats and the branches its sessions land on.
export { GEMINI_JSONL_FORMAT } from '../../formats/gemini-jsonl.js';
/** the chat documents of Gemini CLI before its JSONL sessions */
export const GEMINI_CHAT_FORMAT = 'gemini-cli-chat-v1';
export const sessionBranch = (session: string) => `gemini/${session}`;
