import { QueryBuilder } from 'drizzle-orm/pg-core';
import { deliveries } from '../../db/schema/index.ts';

/**
 * Outbox rows as another module's query counts them (how an alert's SMS went, by key), read only: a
 * subquery PostgreSQL folds into the table's own plan (the keys' indexes too), so this module alone
 * decides the table's shape.
 */
export const deliveryFacts = new QueryBuilder()
  .select({ key: deliveries.key, channel: deliveries.channel, state: deliveries.state })
  .from(deliveries)
  .as('delivery_facts');
