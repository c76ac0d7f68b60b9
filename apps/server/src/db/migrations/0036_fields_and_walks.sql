-- Fields and scouting walks (docs/decisions/0078). A farmer's field is the unit every analysis, follow-up
-- reminder, scouting walk and plant clinic visit belongs to.
--
-- The data move: existing analyses go into one field per farmer and crop (a photo without a crop goes with
-- the farmer's `other` photos into "My field", crop `other`), named in the farmer's language (en "Maize
-- field", "Beans field", "My field"; sw "Shamba la mahindi", "Shamba la maharage", "Shamba langu"; lg
-- "Ennimiro ya kasooli", "Ennimiro y'ebijanjaalo", "Ennimiro yange": the catalogues' fields.defaultName),
-- in the farmer's district, numbered 1, 2, 3 by their first photo. A plant clinic visit of a crop the farmer
-- has no photo of gets its field too. Follow-up reminders take their diagnosis's field, and clinic visits
-- the field of their farmer and crop. One open reminder per field replaces one per farmer and crop: where a
-- farmer had open reminders for both "no crop" and `other` (now one field), the older is cancelled.
CREATE TABLE "fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"crop" text NOT NULL,
	"size_acres" real,
	"district" text,
	"planted_on" date,
	"lat" double precision,
	"lng" double precision,
	"number" integer NOT NULL,
	"retired_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fields_crop_check" CHECK ("fields"."crop" in ('maize', 'beans', 'other'))
);
--> statement-breakpoint
CREATE TABLE "scouting_walks" (
	"id" serial PRIMARY KEY NOT NULL,
	"field_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"recorded_by" integer,
	"channel" text NOT NULL,
	"idempotency_key" text,
	"walked_at" timestamp with time zone NOT NULL,
	"stops" jsonb NOT NULL,
	"plants_looked" integer NOT NULL,
	"plants_rust" integer NOT NULL,
	"weeks_since_planting" integer,
	"growth_stage" text,
	"stage_said" boolean DEFAULT false NOT NULL,
	"advice_rule" text NOT NULL,
	"rules_version" text NOT NULL,
	"advice_action" text NOT NULL,
	"advice_steps" jsonb NOT NULL,
	"walk_again_days" integer,
	"advice_sources" jsonb NOT NULL,
	"compared_walk_id" integer,
	"compared_walked_at" timestamp with time zone,
	"compared_looked" integer,
	"compared_rust" integer,
	"comparison" text,
	"sent_to_expert" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "scouting_walks_channel_check" CHECK ("scouting_walks"."channel" in ('web', 'offline', 'ussd', 'sms', 'clinic')),
	CONSTRAINT "scouting_walks_counts_check" CHECK ("scouting_walks"."plants_rust" between 0 and "scouting_walks"."plants_looked")
);
--> statement-breakpoint
DROP INDEX "follow_ups_open_field_idx";
--> statement-breakpoint
ALTER TABLE "follow_ups" ALTER COLUMN "analysis_id" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "analyses" ADD COLUMN "field_id" integer;
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD COLUMN "walk_id" integer;
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD COLUMN "next_walk_id" integer;
--> statement-breakpoint
ALTER TABLE "clinic_visits" ADD COLUMN "field_id" integer;
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD COLUMN "field_id" integer;
--> statement-breakpoint
-- The fields: one per farmer and crop of their analyses and plant clinic visits.
INSERT INTO "fields" ("user_id", "name", "crop", "district", "number", "created_at", "updated_at")
SELECT p."user_id",
	CASE p."crop"
		WHEN 'maize' THEN CASE u."language" WHEN 'sw' THEN 'Shamba la mahindi' WHEN 'lg' THEN 'Ennimiro ya kasooli' ELSE 'Maize field' END
		WHEN 'beans' THEN CASE u."language" WHEN 'sw' THEN 'Shamba la maharage' WHEN 'lg' THEN 'Ennimiro y''ebijanjaalo' ELSE 'Beans field' END
		ELSE CASE u."language" WHEN 'sw' THEN 'Shamba langu' WHEN 'lg' THEN 'Ennimiro yange' ELSE 'My field' END
	END,
	p."crop",
	u."district",
	row_number() OVER (PARTITION BY p."user_id" ORDER BY p."since", p."crop"),
	p."since",
	now()
FROM (
	SELECT "user_id", "crop", min("at") AS "since" FROM (
		SELECT "user_id", coalesce("crop", 'other') AS "crop", "created_at" AS "at" FROM "analyses"
		UNION ALL
		SELECT "farmer_id", "crop", "created_at" FROM "clinic_visits"
	) AS "x"
	GROUP BY "user_id", "crop"
) AS "p"
JOIN "users" AS "u" ON u."id" = p."user_id";
--> statement-breakpoint
UPDATE "analyses" AS a SET "field_id" = f."id"
FROM "fields" AS f WHERE f."user_id" = a."user_id" AND f."crop" = coalesce(a."crop", 'other');
--> statement-breakpoint
UPDATE "clinic_visits" AS v SET "field_id" = f."id"
FROM "fields" AS f WHERE f."user_id" = v."farmer_id" AND f."crop" = v."crop";
--> statement-breakpoint
UPDATE "follow_ups" AS r SET "field_id" = a."field_id"
FROM "analyses" AS a WHERE a."id" = r."analysis_id";
--> statement-breakpoint
-- Two open reminders now in one field ("no crop" and `other`): the newer stays open.
UPDATE "follow_ups" AS r SET "state" = 'cancelled', "closed_at" = now()
WHERE r."state" IN ('waiting', 'sent') AND EXISTS (
	SELECT 1 FROM "follow_ups" AS n
	WHERE n."field_id" = r."field_id" AND n."state" IN ('waiting', 'sent')
		AND (n."created_at", n."id") > (r."created_at", r."id")
);
--> statement-breakpoint
ALTER TABLE "follow_ups" ALTER COLUMN "field_id" SET NOT NULL;
--> statement-breakpoint
-- A field's name shows in its farmer's history, and a walk changes whether a result asks for one (docs/decisions/0036).
CREATE TRIGGER "fields_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "fields"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('user_id');
--> statement-breakpoint
CREATE TRIGGER "scouting_walks_read_versions" AFTER INSERT OR UPDATE OR DELETE ON "scouting_walks"
	FOR EACH ROW EXECUTE FUNCTION "read_versions_changed"('user_id');
--> statement-breakpoint
ALTER TABLE "fields" ADD CONSTRAINT "fields_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD CONSTRAINT "scouting_walks_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD CONSTRAINT "scouting_walks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD CONSTRAINT "scouting_walks_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD CONSTRAINT "scouting_walks_compared_walk_id_scouting_walks_id_fk" FOREIGN KEY ("compared_walk_id") REFERENCES "public"."scouting_walks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "fields_user_name_idx" ON "fields" USING btree ("user_id",lower("name")) WHERE retired_at is null;
--> statement-breakpoint
CREATE UNIQUE INDEX "fields_user_number_idx" ON "fields" USING btree ("user_id","number");
--> statement-breakpoint
CREATE INDEX "fields_user_created_idx" ON "fields" USING btree ("user_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "scouting_walks_user_key_idx" ON "scouting_walks" USING btree ("user_id","idempotency_key");
--> statement-breakpoint
CREATE INDEX "scouting_walks_field_walked_idx" ON "scouting_walks" USING btree ("field_id","walked_at");
--> statement-breakpoint
CREATE INDEX "scouting_walks_worse_idx" ON "scouting_walks" USING btree ("walked_at") WHERE comparison = 'worse';
--> statement-breakpoint
ALTER TABLE "analyses" ADD CONSTRAINT "analyses_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_walk_id_scouting_walks_id_fk" FOREIGN KEY ("walk_id") REFERENCES "public"."scouting_walks"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_next_walk_id_scouting_walks_id_fk" FOREIGN KEY ("next_walk_id") REFERENCES "public"."scouting_walks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "clinic_visits" ADD CONSTRAINT "clinic_visits_field_id_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."fields"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "analyses_field_created_idx" ON "analyses" USING btree ("field_id","created_at");
--> statement-breakpoint
CREATE UNIQUE INDEX "follow_ups_walk_idx" ON "follow_ups" USING btree ("walk_id");
--> statement-breakpoint
CREATE INDEX "follow_ups_user_idx" ON "follow_ups" USING btree ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "follow_ups_open_field_idx" ON "follow_ups" USING btree ("field_id") WHERE state in ('waiting', 'sent');
--> statement-breakpoint
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_opened_by_check" CHECK ("follow_ups"."analysis_id" is not null or "follow_ups"."walk_id" is not null);
