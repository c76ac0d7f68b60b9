DROP INDEX "notifications_key_prefix_idx";--> statement-breakpoint
DROP INDEX "deliveries_key_prefix_idx";--> statement-breakpoint
DROP INDEX "deliveries_state_idx";--> statement-breakpoint
DROP INDEX "notifications_key_idx";--> statement-breakpoint
DROP INDEX "deliveries_key_idx";--> statement-breakpoint
DROP INDEX "deliveries_due_idx";--> statement-breakpoint
DROP INDEX "deliveries_gateway_idx";--> statement-breakpoint
ALTER TABLE "deliveries" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "language" text;--> statement-breakpoint
CREATE INDEX "deliveries_failed_idx" ON "deliveries" USING btree ("id") WHERE state = 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_key_idx" ON "notifications" USING btree ("key" text_pattern_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_key_idx" ON "deliveries" USING btree ("key" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_at","id") WHERE state in ('waiting', 'sending');--> statement-breakpoint
CREATE INDEX "deliveries_gateway_idx" ON "deliveries" USING btree ("gateway_id") WHERE gateway_id is not null;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_to_check" CHECK ("deliveries"."user_id" is not null or ("deliveries"."address" is not null and "deliveries"."language" is not null));