-- Each district's weather is read at several points (docs/decisions/0134): a row per district and point
-- (0, the centre, as the rows kept so far), with the elevation the service gives for the place.
ALTER TABLE "weather_forecasts" ADD COLUMN "point" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "weather_forecasts" ADD COLUMN "elevation" real;--> statement-breakpoint
ALTER TABLE "weather_forecasts" DROP CONSTRAINT "weather_forecasts_pkey";--> statement-breakpoint
ALTER TABLE "weather_forecasts" ADD CONSTRAINT "weather_forecasts_district_point_pk" PRIMARY KEY("district","point");
