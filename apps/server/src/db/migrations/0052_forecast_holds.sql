CREATE TABLE "forecast_holds" (
	"id" serial PRIMARY KEY NOT NULL,
	"district" text NOT NULL,
	"week_start" date NOT NULL,
	"reason" text NOT NULL,
	"held_by" integer,
	"held_at" timestamp with time zone NOT NULL,
	"lifted_by" integer,
	"lifted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "forecast_holds" ADD CONSTRAINT "forecast_holds_held_by_users_id_fk" FOREIGN KEY ("held_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forecast_holds" ADD CONSTRAINT "forecast_holds_lifted_by_users_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forecast_holds_week_idx" ON "forecast_holds" USING btree ("week_start","district");