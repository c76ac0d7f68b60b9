import { startServer } from './server.ts';

// JOBS=on (default): API, web app and background jobs in one process; JOBS=off: a web process.
await startServer();
