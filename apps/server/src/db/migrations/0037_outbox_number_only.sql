ALTER TABLE "deliveries" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "language" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_to_check" CHECK ("deliveries"."user_id" is not null or ("deliveries"."address" is not null and "deliveries"."language" is not null));