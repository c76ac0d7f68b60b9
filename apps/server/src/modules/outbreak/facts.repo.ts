import { QueryBuilder } from 'drizzle-orm/pg-core';
import { outbreakAlerts, outbreakFarmerWeeks } from '../../db/schema/index.ts';

/**
 * The outbreak watch's farmer-weeks and alerts as another module's query reads them (an officer's
 * week), read only: subqueries PostgreSQL folds into the tables' own plans, so this module alone
 * decides their shape.
 */
export const farmerWeekFacts = new QueryBuilder()
  .select({
    district: outbreakFarmerWeeks.district,
    crop: outbreakFarmerWeeks.crop,
    weekStart: outbreakFarmerWeeks.weekStart,
    state: outbreakFarmerWeeks.state,
    demo: outbreakFarmerWeeks.demo,
  })
  .from(outbreakFarmerWeeks)
  .as('farmer_week_facts');

export const alertFacts = new QueryBuilder()
  .select({
    id: outbreakAlerts.id,
    district: outbreakAlerts.district,
    crop: outbreakAlerts.crop,
    sourceDistrict: outbreakAlerts.sourceDistrict,
    raisedAt: outbreakAlerts.raisedAt,
    endedAt: outbreakAlerts.endedAt,
  })
  .from(outbreakAlerts)
  .as('alert_facts');
