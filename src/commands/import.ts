import { basename } from 'node:path';
import { importSession } from '../api/sessions.js';
import { shortId } from '../core/ids.js';
import { importJson } from '../output/records.js';
import { defineCommand } from './command.js';
import { METADATA_OPTIONS, metadataFields, type MetadataFlags } from './metadata-flags.js';
import { runtimeNames } from './runtime-names.js';

export default defineCommand({
  name: 'import',
  summary: 'a real transcript into a chain, split at turn boundaries (an older Gemini CLI chat: a snapshot per save); again later: only what is new',
  args: [
    { name: 'runtime', description: `the runtime that wrote it: ${runtimeNames().join(', ')}`, required: true, values: 'runtime:import' },
    { name: 'file', description: 'transcript file: Claude Code session .jsonl, Codex rollout .jsonl, Gemini CLI session .jsonl (or chat .json)', required: true, values: 'file' },
  ],
  options: [
    { flags: '-b, --branch <name>', description: "branch (default: the runtime's own for the session, e.g. claude/<session id>); a later save of a saved chat adds to an existing one", values: 'branch' },
    ...METADATA_OPTIONS,
  ],
  examples: [
    'ctx import claude-code ~/.claude/projects/my-project/3f6c2a9e-8b1d-4e57-a0c4-5d2e9b7f1a83.jsonl -b alice/auth-fix',
    'ctx import codex ~/.codex/sessions/2025/11/17/rollout-2025-11-17T15-30-28-session.jsonl',
    'ctx import gemini-cli ~/.gemini/tmp/my-project/chats/session-2026-01-10T09-00-aaaa1111.jsonl --json',
  ],
  async run(io, [runtime, file]: [string, string], flags: MetadataFlags & { branch?: string }) {
    const bar = io.progress(`importing ${basename(file)}`, 'commits');
    let result;
    try {
      result = await io.withRepo(true, (repo) => importSession(repo, runtime, file, { branch: flags.branch, fields: metadataFields(flags), onProgress: (n, total) => bar.update(n, total) }));
    } finally {
      bar.done();
    }
    for (const w of result.commits.flatMap((c) => c.warnings ?? [])) io.note(w);
    if (result.unchanged) io.note(`${result.branch} already holds this chat: nothing written`);
    const tip = result.commits.length ? result.commits[result.commits.length - 1].oid : result.tip!;
    return { ...result, tip };
  },
  print(io, r) {
    if (io.flags.json) return io.json(importJson(r, r.tip));
    io.out(`${r.branch}\t${shortId(r.tip)}\t${r.commits.length} commits\n`);
  },
});
