// Gemini CLI as a runtime plug-in: import of its saved chats, a snapshot commit per save.
import type { Runtime } from '../../api/runtime.js';
import { GEMINI_FORMAT, importGemini, sessionBranch } from './import.js';

export const geminiCli: Runtime = {
  name: 'gemini-cli',
  title: 'Gemini CLI',
  formats: [GEMINI_FORMAT],
  sessionBranch,
  import: { accepts: 'a Gemini CLI chat .json', files: /^session-.*\.jsonl?$/, run: importGemini },
};
