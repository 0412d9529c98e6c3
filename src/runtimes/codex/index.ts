// Codex CLI as a runtime plug-in: import of its rollouts (current and pre-envelope).
import type { Runtime } from '../../api/runtime.js';
import { CODEX_FORMAT, CODEX_LEGACY_FORMAT, importCodex, sessionBranch } from './import.js';

export const codex: Runtime = {
  name: 'codex',
  title: 'Codex CLI',
  formats: [CODEX_FORMAT, CODEX_LEGACY_FORMAT],
  sessionBranch,
  import: { accepts: 'a Codex rollout .jsonl', files: /^rollout-.*\.jsonl$/, run: importCodex },
};
