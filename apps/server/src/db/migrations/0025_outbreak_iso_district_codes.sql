-- Uganda district codes from Natural Earth's (about 2010) to ISO 3166-2:UG's (docs/decisions/0052): 33
-- districts had codes that ISO gives to others. Each stored code moves with its district, in two steps
-- (through a temporary prefix) so that no row ever takes a code another row still holds.
CREATE TEMPORARY TABLE ug_code_map (old_code text PRIMARY KEY, new_code text NOT NULL);
--> statement-breakpoint
INSERT INTO ug_code_map (old_code, new_code) VALUES
  ('UG-114', 'UG-115'),
  ('UG-115', 'UG-116'),
  ('UG-116', 'UG-114'),
  ('UG-218', 'UG-220'),
  ('UG-219', 'UG-221'),
  ('UG-220', 'UG-222'),
  ('UG-221', 'UG-223'),
  ('UG-222', 'UG-224'),
  ('UG-223', 'UG-218'),
  ('UG-224', 'UG-219'),
  ('UG-314', 'UG-315'),
  ('UG-315', 'UG-318'),
  ('UG-316', 'UG-319'),
  ('UG-317', 'UG-314'),
  ('UG-318', 'UG-317'),
  ('UG-319', 'UG-316'),
  ('UG-325', 'UG-420'),
  ('UG-326', 'UG-325'),
  ('UG-327', 'UG-326'),
  ('UG-328', 'UG-327'),
  ('UG-329', 'UG-328'),
  ('UG-330', 'UG-329'),
  ('UG-331', 'UG-330'),
  ('UG-416', 'UG-417'),
  ('UG-417', 'UG-418'),
  ('UG-418', 'UG-419'),
  ('UG-419', 'UG-416'),
  ('UG-420', 'UG-421'),
  ('UG-421', 'UG-422'),
  ('UG-422', 'UG-423'),
  ('UG-423', 'UG-424'),
  ('UG-424', 'UG-425'),
  ('UG-425', 'UG-426');
--> statement-breakpoint
UPDATE users SET district = 'iso:' || m.new_code FROM ug_code_map m WHERE users.district = m.old_code;
--> statement-breakpoint
UPDATE outbreak_cases SET district = 'iso:' || m.new_code FROM ug_code_map m WHERE outbreak_cases.district = m.old_code;
--> statement-breakpoint
UPDATE outbreak_farmer_weeks SET district = 'iso:' || m.new_code FROM ug_code_map m WHERE outbreak_farmer_weeks.district = m.old_code;
--> statement-breakpoint
UPDATE outbreak_counts SET district = 'iso:' || m.new_code FROM ug_code_map m WHERE outbreak_counts.district = m.old_code;
--> statement-breakpoint
UPDATE outbreak_alerts SET district = 'iso:' || m.new_code FROM ug_code_map m WHERE outbreak_alerts.district = m.old_code;
--> statement-breakpoint
UPDATE outbreak_alerts SET source_district = 'iso:' || m.new_code FROM ug_code_map m WHERE outbreak_alerts.source_district = m.old_code;
--> statement-breakpoint
UPDATE users SET district = substr(district, 5) WHERE district LIKE 'iso:%';
--> statement-breakpoint
UPDATE outbreak_cases SET district = substr(district, 5) WHERE district LIKE 'iso:%';
--> statement-breakpoint
UPDATE outbreak_farmer_weeks SET district = substr(district, 5) WHERE district LIKE 'iso:%';
--> statement-breakpoint
UPDATE outbreak_counts SET district = substr(district, 5) WHERE district LIKE 'iso:%';
--> statement-breakpoint
UPDATE outbreak_alerts SET district = substr(district, 5) WHERE district LIKE 'iso:%';
--> statement-breakpoint
UPDATE outbreak_alerts SET source_district = substr(source_district, 5) WHERE source_district LIKE 'iso:%';
--> statement-breakpoint
DROP TABLE ug_code_map;
