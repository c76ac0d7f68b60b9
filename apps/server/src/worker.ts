import { startServer } from './server.ts';

// Background jobs (retraining) only; HTTP on PORT for /api/health/, /api/health/ready/ and /metrics.
await startServer({ role: 'worker' });
