/**
 * `npm run worker` with the real trainer in a tiny configuration (the retraining tests' settings), so
 * the cluster test's retraining takes seconds. KUTU_TEST_TRAINER=long makes an epoch last long enough
 * to kill the worker mid-run.
 */
import { startServer } from '../../src/server.ts';
import { createVisionTrainer } from '../../src/adapters/trainer.ts';

const sizes = {
  tiny: ['--synthetic', '8', '--nonleaf-repeats', '1', '--batch', '16'],
  long: ['--synthetic', '6000', '--nonleaf-repeats', '1', '--batch', '16'],
};
const args = process.env.KUTU_TEST_TRAINER === 'long' ? sizes.long : sizes.tiny;
await startServer({
  role: 'worker',
  // A dead worker's job is failed after two missed heartbeats (HEARTBEAT_MS) rather than the product's
  // minute, so the test of it waits 20 s, not 60.
  training: { trainer: createVisionTrainer({ threads: 1, extraTrainerArgs: args }), staleAfterMs: 20_000 },
});
