ALTER TABLE "users" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The demo farmers made before the flag: the demo command's own accounts (its name prefix, no email, no
-- password, its +2560000 numbers), not a real sign-up that chose a name like theirs.
UPDATE "users" SET "demo" = true WHERE "username" LIKE 'demo!_outbreak!_%' ESCAPE '!' AND "email" IS NULL AND "password_hash" IS NULL AND "phone" LIKE '+2560000%';
