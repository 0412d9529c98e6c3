// pi's names in a context store: its format and the branches its sessions land on.
export { PI_FORMAT } from '../../formats/pi-session.js';
export const sessionBranch = (session: string) => `pi/${session}`;
