// opencode's names in a context store: its format and the branches its sessions land on.
export { OPENCODE_FORMAT } from '../../formats/opencode-session.js';
export const sessionBranch = (session: string) => `opencode/${session}`;
