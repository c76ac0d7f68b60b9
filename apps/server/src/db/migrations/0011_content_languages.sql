CREATE TABLE "education_resource_translations" (
	"resource_id" integer NOT NULL,
	"language" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	CONSTRAINT "education_resource_translations_resource_id_language_pk" PRIMARY KEY("resource_id","language"),
	CONSTRAINT "education_resource_translations_language_check" CHECK ("education_resource_translations"."language" in ('sw', 'lg'))
);
--> statement-breakpoint
DROP INDEX "advice_topic_crop_idx";--> statement-breakpoint
ALTER TABLE "advice" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "education_resources" ADD COLUMN "link_language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "education_resource_translations" ADD CONSTRAINT "education_resource_translations_resource_id_education_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."education_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "advice_topic_crop_language_idx" ON "advice" USING btree ("topic","crop","language");--> statement-breakpoint
ALTER TABLE "advice" ADD CONSTRAINT "advice_language_check" CHECK ("advice"."language" in ('en', 'sw', 'lg'));--> statement-breakpoint
ALTER TABLE "education_resources" ADD CONSTRAINT "education_resources_link_language_check" CHECK ("education_resources"."link_language" in ('en', 'sw', 'lg'));