// The guides and protocols the field rules (field-rules.ts) rest on: each a title and an address, kept with
// every walk's advice.

/** Where a rule comes from: an extension guide or a scouting protocol (title and address). */
export interface RuleSource {
  title: string;
  url: string;
}

export const FIELD_RULE_SOURCES = {
  famews: {
    title:
      'Fall Armyworm in Africa: A Guide for Integrated Pest Management, ch. 2: Scouting, Action Thresholds, and Monitoring (CIMMYT/USAID); FAO FAMEWS',
    url: 'https://www.cgiar.org/research/publication/chapter-2-fall-armyworm-scouting-action-thresholds-and-monitoring/',
  },
  maizeUmn: {
    title: 'Common rust on corn (University of Minnesota Extension)',
    url: 'https://extension.umn.edu/corn-pest-management/common-rust-corn',
  },
  maizeCornell: {
    title: 'Common Rust (Cornell University CALS, Field Crops: Corn diseases)',
    url: 'https://cals.cornell.edu/field-crops/corn/diseases-corn/common-rust',
  },
  maizePurdue: {
    title: 'Corn Rust - An Epidemic? (G. Shaner, Purdue University, 2000)',
    url: 'https://www.agry.purdue.edu/ext/corn/news/articles.00/Corn_Rust-0713.html',
  },
  maizePacific: {
    title: 'Maize common rust, fact sheet 225 (Pacific Pests, Pathogens, Weeds & Pesticides)',
    url: 'https://apps.lucidcentral.org/pppw_v12/text/web_full/entities/maize_common_rust_225.htm',
  },
  maizeAuburn: {
    title: 'Diseases stealing profits from corn growers (A. Hagan, Auburn University, in Southeast Farm Press)',
    url: 'http://southeastfarmpress.com/grains/diseases-stealing-profits-high-yield-corn-growers?page=2',
  },
  beansInfonet: {
    title: 'Bean rust (Infonet-Biovision)',
    url: 'https://infonet-biovision.org/PlantHealth/MinorPests/bean-rust',
  },
  beansPacific: {
    title: 'Bean Phaseolus rust, fact sheet 217 (Pacific Pests, Pathogens, Weeds & Pesticides)',
    url: 'https://apps.lucidcentral.org/pppw_v12/text/web_mini/entities/bean_phaseolus_rust_217.htm',
  },
  beansNdsu: {
    title: 'Rust on Dry Beans (North Dakota State University Extension, Crop & Pest Report)',
    url: 'https://www.ag.ndsu.edu/cpr/plant-pathology/rust-on-dry-beans-being-found-in-north-dakota-and-minnesota-07-27-17',
  },
  beansNdsuLate: {
    title: 'Dry Edible Bean Rust Continues to Develop (S. Markell, NDSU Extension, Crop & Pest Report, 2015)',
    url: 'https://www.ag.ndsu.edu/cpr/plant-pathology/dry-edible-bean-rust-continues-to-develop-08-13-15',
  },
} as const satisfies Record<string, RuleSource>;
