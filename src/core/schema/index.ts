/** The schema room's front door: the faces (src/cli, src/server, src/extension) import it, nothing deeper. */
export * from './import.js';
export { suggestFds } from './suggest-fds.js';
