ALTER TABLE "posts" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "kind" text DEFAULT 'farmer' NOT NULL;--> statement-breakpoint
ALTER TABLE "responses" ADD COLUMN "reply_to_id" integer;--> statement-breakpoint
ALTER TABLE "responses" ADD CONSTRAINT "responses_reply_to_id_responses_id_fk" FOREIGN KEY ("reply_to_id") REFERENCES "public"."responses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "moderation_audit_created_idx" ON "moderation_audit" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "posts_author_created_idx" ON "posts" USING btree ("author_id","created_at");--> statement-breakpoint
CREATE INDEX "responses_author_created_idx" ON "responses" USING btree ("author_id","created_at");