import { QueryBuilder } from 'drizzle-orm/pg-core';
import { expertProfiles, farmerProfiles } from '../../db/schema/index.ts';

/**
 * An expert's own facts as another module's query joins them (the experts beside their consultation
 * slots, an expert's application), read only: a subquery PostgreSQL folds into a plain join, so auth
 * alone decides the table's shape. E.g. `.leftJoin(expertFacts, eq(expertFacts.userId, availabilitySlots.expertId))`.
 */
export const expertFacts = new QueryBuilder()
  .select({
    userId: expertProfiles.userId,
    bio: expertProfiles.bio,
    areasOfExpertise: expertProfiles.areasOfExpertise,
    certifications: expertProfiles.certifications,
    experienceYears: expertProfiles.experienceYears,
    institution: expertProfiles.institution,
    languagesSpoken: expertProfiles.languagesSpoken,
    socialLinks: expertProfiles.socialLinks,
  })
  .from(expertProfiles)
  .as('expert_facts');

/** A farmer's name as given at a clinic or on a basic phone (null for a web sign-up) and crops, joined as above. */
export const farmerFacts = new QueryBuilder()
  .select({ userId: farmerProfiles.userId, name: farmerProfiles.name, cropTypes: farmerProfiles.cropTypes })
  .from(farmerProfiles)
  .as('farmer_facts');
