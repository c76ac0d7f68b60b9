-- Issue 37 item 5: the Luganda advice and resource texts seeded by 0012 put English words in brackets
-- after Luganda ones ("Kutu (rust) ku kasooli", "kutu ya polysora (southern rust)", "ensigo za kutu
-- (spores)", "paketi (label)"); a farmer reading Luganda is shown English. The Luganda word stays, the
-- English gloss goes. Kept on purpose: names with no Luganda or Kiswahili word that farmers and
-- extension officers use as they are (gray leaf spot, angular leaf spot, northern leaf blight,
-- Turcicum leaf blight), proper names (Maize Doctor, Farmer Field Schools, CIMMYT, KALRO, NARO,
-- PCPB, MAAIF, Ug99) and product names (azoxystrobin, mancozeb, CAN, DAP). "Kutu" is the brand and
-- the Kiswahili word for rust.
UPDATE "advice" SET
  "headline" = regexp_replace("headline", ' \((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)', '', 'g'),
  "steps" = regexp_replace(replace("steps"::text, '(leaf rust, eya kitaka)', '(eya kitaka)'), ' \((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)', '', 'g')::jsonb,
  "more" = regexp_replace(replace("more"::text, '(leaf rust, eya kitaka)', '(eya kitaka)'), ' \((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)', '', 'g')::jsonb
WHERE "language" = 'lg';
--> statement-breakpoint
UPDATE "education_resource_translations" SET
  "title" = regexp_replace(replace("title", '(leaf rust, eya kitaka)', '(eya kitaka)'), ' \((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)', '', 'g'),
  "description" = regexp_replace(replace("description", '(leaf rust, eya kitaka)', '(eya kitaka)'), ' \((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)', '', 'g')
WHERE "language" = 'lg';
--> statement-breakpoint
UPDATE "advice" SET
  "steps" = replace("steps"::text, ' (flag leaf)', '')::jsonb,
  "more" = replace("more"::text, ' (flag leaf)', '')::jsonb
WHERE "language" = 'sw';
--> statement-breakpoint
UPDATE "education_resource_translations" SET "description" = replace("description", ' (flag leaf)', '')
WHERE "language" = 'sw';
