// GitHub Copilot CLI's names in a context store: its format and the branches its sessions land on.
export { COPILOT_FORMAT } from '../../formats/copilot-events.js';
export const sessionBranch = (session: string) => `copilot/${session}`;
