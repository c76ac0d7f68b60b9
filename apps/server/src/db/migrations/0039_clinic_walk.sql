-- A plant clinic visit records the walk the expert counted (docs/decisions/0078): plants looked at and plants
-- with rust, instead of or beside the share of the field affected, which becomes optional.
ALTER TABLE "clinic_visits" ALTER COLUMN "share_affected" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "clinic_visits" ADD COLUMN "walk_id" integer;--> statement-breakpoint
ALTER TABLE "clinic_visits" ADD CONSTRAINT "clinic_visits_walk_id_scouting_walks_id_fk" FOREIGN KEY ("walk_id") REFERENCES "public"."scouting_walks"("id") ON DELETE set null ON UPDATE no action;