import { QueryBuilder } from 'drizzle-orm/pg-core';
import { expertProfiles } from '../../db/schema/index.ts';

/**
 * An expert's public facts as another module's query joins them (the experts beside their consultation
 * slots), read only: a subquery PostgreSQL folds into a plain join, so auth alone decides the table's
 * shape. E.g. `.leftJoin(expertFacts, eq(expertFacts.userId, availabilitySlots.expertId))`.
 */
export const expertFacts = new QueryBuilder()
  .select({
    userId: expertProfiles.userId,
    bio: expertProfiles.bio,
    areasOfExpertise: expertProfiles.areasOfExpertise,
    certifications: expertProfiles.certifications,
  })
  .from(expertProfiles)
  .as('expert_facts');
