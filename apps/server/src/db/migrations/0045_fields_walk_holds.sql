ALTER TABLE "scouting_walks" ADD COLUMN "held_for" text;--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD COLUMN "confirmed_by" integer;--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scouting_walks" ADD CONSTRAINT "scouting_walks_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;