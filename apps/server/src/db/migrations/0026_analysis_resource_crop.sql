ALTER TABLE "education_resources" ADD COLUMN "crop" text;--> statement-breakpoint
-- The crop of each seeded resource (docs/decisions/0049): a result lists its crop's resources and the
-- general ones (null), so a bean-rust result no longer opens with maize and wheat pages.
UPDATE "education_resources" SET "crop" = v."crop"
FROM (VALUES
('common_rust', 'http://maizedoctor.cimmyt.org/common-rust', 'maize'),
('common_rust', 'https://extension.umn.edu/corn-pest-management/common-rust-corn', 'maize'),
('common_rust', 'https://cals.cornell.edu/field-crops/corn/diseases-corn/common-rust', 'maize'),
('common_rust', 'https://apps.lucidcentral.org/pppw_v12/text/web_full/entities/maize_common_rust_225.htm', 'maize'),
('common_rust', 'http://maizedoctor.cimmyt.org/en/polysora-rust', 'maize'),
('common_rust', 'https://infonet-biovision.org/PlantHealth/MinorPests/bean-rust', 'beans'),
('common_rust', 'https://extensionpubs.unl.edu/publication/g1766/2013/html/view', 'beans'),
('common_rust', 'https://apps.lucidcentral.org/pppw_v12/text/web_mini/entities/bean_phaseolus_rust_217.htm', 'beans'),
('common_rust', 'http://wheatdoctor.cimmyt.org/leaf-rust-extended-information', 'other'),
('common_rust', 'https://cropprotectionnetwork.org/encyclopedia/wheat/foliar-diseases/stripe-rust-of-wheat/', 'other'),
('common_rust', 'https://www.fao.org/agriculture/crops/thematic-sitemap/theme/pests/wrdgp/en/', 'other'),
('other_disease', 'http://maizedoctor.cimmyt.org/en/turcicum-leaf-blight', 'maize'),
('other_disease', 'https://guide.utcrops.com/corn/foliar-disease/northern-corn-leaf-blight/', 'maize'),
('other_disease', 'http://www.kalro.org/alris/search/factsheetlink.php?recno=20160528120856', 'maize'),
('other_disease', 'http://maizedoctor.cimmyt.org/en/gray-leaf-spot-extended-information', 'maize'),
('other_disease', 'https://guide.utcrops.com/corn/foliar-disease/gray-leaf-spot/', 'maize'),
('other_disease', 'https://apps.lucidcentral.org/ppp/text/web_full/entities/bean_angular_leaf_spot_216.htm', 'beans'),
('other_disease', 'https://sagrainmag.co.za/?p=41474', 'beans'),
('other_disease', 'https://beanipm.pbgworks.org/fungal-leaf-spots', 'beans'),
('healthy', 'https://www.kalro.org/Maize_pre_post_harvest', 'maize')
) AS v("rust_class", "url", "crop")
WHERE "education_resources"."rust_class" = v."rust_class" AND "education_resources"."url" = v."url";
--> statement-breakpoint
-- "No leaf" advice for a farmer who said the crop: it does not ask them to choose the crop again, and
-- offers the expert for a photo that does show a leaf (docs/decisions/0049). The first two steps and the
-- sources are the general entry's, in each language. Kiswahili and Luganda await a native speaker's review.
INSERT INTO "advice" ("topic", "crop", "language", "headline", "steps", "more", "sources")
SELECT 'not_leaf', v."crop", v."language", v."headline",
  jsonb_build_array(g."steps"->0, g."steps"->1, v."third"), jsonb_build_array(v."more"), g."sources"
FROM (VALUES
('maize', 'en', 'We could not find a maize leaf. Try again with one leaf, close up.', 'If this photo does show a maize leaf, send it to an expert: an expert will look at it.', 'Kutu reads photos of a single leaf, close up. A leaf with much dead or dry tissue (leaf blight, for example) can be missed; an expert can still tell what it is.'),
('beans', 'en', 'We could not find a bean leaf. Try again with one leaf, close up.', 'If this photo does show a bean leaf, send it to an expert: an expert will look at it.', 'Kutu reads photos of a single leaf, close up. A leaf with much dead or dry tissue can be missed; an expert can still tell what it is.'),
('maize', 'sw', 'Hatukuona jani la mahindi. Jaribu tena na jani moja, kwa karibu.', 'Kama picha hii inaonyesha jani la mahindi, mtumie mtaalamu: mtaalamu ataiangalia.', 'Kutu inasoma picha za jani moja, kwa karibu. Jani lenye sehemu nyingi zilizokufa au kukauka (kwa mfano ukungu wa majani) linaweza kukosekana; mtaalamu bado anaweza kujua ni nini.'),
('beans', 'sw', 'Hatukuona jani la maharagwe. Jaribu tena na jani moja, kwa karibu.', 'Kama picha hii inaonyesha jani la maharagwe, mtumie mtaalamu: mtaalamu ataiangalia.', 'Kutu inasoma picha za jani moja, kwa karibu. Jani lenye sehemu nyingi zilizokufa au kukauka linaweza kukosekana; mtaalamu bado anaweza kujua ni nini.'),
('maize', 'lg', 'Tetulabye kikoola kya kasooli. Ddamu okugezaako n''ekikoola kimu, okumpi.', 'Ekifaananyi kino bwe kiba nga kiraga ekikoola kya kasooli, kiweereze omukugu: omukugu ajja kukyetegereza.', 'Kutu esoma ebifaananyi by''ekikoola kimu, nga kiri kumpi. Ekikoola ekirimu ebitundu bingi ebifudde oba ebikaze kiyinza obutalabibwa; omukugu asobola okumanya kye kiri.'),
('beans', 'lg', 'Tetulabye kikoola kya bijanjaalo. Ddamu okugezaako n''ekikoola kimu, okumpi.', 'Ekifaananyi kino bwe kiba nga kiraga ekikoola ky''ebijanjaalo, kiweereze omukugu: omukugu ajja kukyetegereza.', 'Kutu esoma ebifaananyi by''ekikoola kimu, nga kiri kumpi. Ekikoola ekirimu ebitundu bingi ebifudde oba ebikaze kiyinza obutalabibwa; omukugu asobola okumanya kye kiri.')
) AS v("crop", "language", "headline", "third", "more")
JOIN "advice" g ON g."topic" = 'not_leaf' AND g."crop" = 'general' AND g."language" = v."language";
