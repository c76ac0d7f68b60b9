import type { App } from '../../deps.ts';
import type { RouteContext } from '../../route-context.ts';
import type { DeliveryService } from './delivery.service.ts';

/** A pass of the sender as a job (any process may queue one); its worker start starts the sender loop. */
export const DELIVERY_QUEUE = 'delivery-pass';

/**
 * The sender runs in every process that works the job queues (JOBS=on: `npm start`, `npm run worker`),
 * from when it starts working them until the app closes (docs/decisions/0050).
 */
export function deliveryJobs(
  app: App,
  { deps: { jobs }, services: { delivery } }: RouteContext<{ delivery: DeliveryService }>,
) {
  jobs.handle(
    DELIVERY_QUEUE,
    async () => {
      await delivery.sendDue();
    },
    // On SIGTERM the sender stops claiming first and finishes its sends in flight (jobs.stop).
    { onWorkerStart: async () => delivery.start(), onWorkerStop: () => delivery.stop() },
  );
  app.addHook('onClose', async () => {
    await delivery.stop();
  });
}
