ALTER TABLE "analyses" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "analyses_user_idempotency_key_idx" ON "analyses" USING btree ("user_id","idempotency_key");