CREATE TABLE "ussd_actions" (
	"session_id" text NOT NULL,
	"phone" text NOT NULL,
	"text" text NOT NULL,
	"reply" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ussd_actions_session_id_phone_text_pk" PRIMARY KEY("session_id","phone","text")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "ussd_actions_created_idx" ON "ussd_actions" USING btree ("created_at");--> statement-breakpoint
-- The demo farmers made before the flag: the demo command's own accounts (its name prefix, no email, no
-- password, its +2560000 numbers), not a real sign-up that chose a name like theirs.
UPDATE "users" SET "demo" = true WHERE "username" LIKE 'demo!_outbreak!_%' ESCAPE '!' AND "email" IS NULL AND "password_hash" IS NULL AND "phone" LIKE '+2560000%';
