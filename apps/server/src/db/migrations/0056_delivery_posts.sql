CREATE TABLE "delivery_posts" (
	"first_id" integer NOT NULL,
	"attempts" integer NOT NULL,
	"delivery_ids" integer[] NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	CONSTRAINT "delivery_posts_first_id_attempts_pk" PRIMARY KEY("first_id","attempts")
);
--> statement-breakpoint
CREATE INDEX "delivery_posts_ids_idx" ON "delivery_posts" USING gin ("delivery_ids");