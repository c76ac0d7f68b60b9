import { type RustClass, rustClasses } from './enums.ts';

/**
 * A text for a person as the API sends it: a key of the web app's catalogue
 * (apps/web/src/lib/locales/<language>.json) and its values, some of them keys themselves. The web
 * app writes it in the language on screen; no sentence of the result is written on the server. Never
 * in a field named `message`: the server's reply hook writes those with its own catalog (plugins/language.ts).
 */
export type TextRef = { key: string; values?: Record<string, string | { key: string }> };

/** The crops whose rust has a name of its own (`analysis.rustName.*`); any other is "rust". */
const namedRusts = ['maize', 'beans', 'wheat'] as const;
const namedRust = (crop: string | null | undefined) => namedRusts.find((c) => c === crop);

/**
 * The model's rust class as the farmers and experts of the crop call it: common rust (Puccinia sorghi)
 * on maize, bean rust (Uromyces appendiculatus) on beans, leaf, stem or stripe rust on wheat; rust when
 * the crop is not known. `crop` is an analysis crop or a post's crop in lower case.
 */
export const rustNameKey = (crop: string | null | undefined): string => `analysis.rustName.${namedRust(crop) ?? 'any'}`;

type Shown = { outcome: 'diagnosis' | 'not_leaf'; rust_class: RustClass | null; crop?: string | null };

/** The label key of a result: its class (rust named for the crop), or "no leaf". */
export function resultLabelKey(r: Shown): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'analysis.class.not_leaf';
  return r.rust_class === 'common_rust' ? rustNameKey(r.crop) : `analysis.class.${r.rust_class}`;
}

/** A model's confidence as farmers read it: a whole percent ("70%"); two decimals claim a precision it has not. */
export const confidencePercent = (confidence: number): string => `${Math.round(confidence * 100)}%`;

type Said = Shown & {
  unsure: boolean;
  confidence: number;
  /** Field answers: leaves that showed rust on their own, of how many. */
  rust_leaves?: number | null;
  leaf_count?: number;
};

/**
 * Rust seen on some leaves of a field that is not sure as a whole (`rustSeenOnSome` in field-photos.ts):
 * "Bean rust seen on 1 of 3 leaves".
 */
function rustSeenText(r: Said, kind: 'heading' | 'explanation'): TextRef | null {
  if (!r.unsure || r.outcome !== 'diagnosis' || r.rust_class !== 'common_rust' || !r.rust_leaves) return null;
  if (kind === 'explanation') return { key: 'analysis.result.explanation.rust_seen' };
  return {
    key: 'analysis.result.heading.rust_seen',
    values: { rust: { key: rustNameKey(r.crop) }, count: String(r.rust_leaves), total: String(r.leaf_count ?? 1) },
  };
}

/** The kind of a sure result, as the catalogue's `heading` and `explanation` keys name it. */
function sureKind(r: Shown): string {
  if (r.outcome === 'not_leaf' || !r.rust_class) return 'not_leaf';
  if (r.rust_class !== 'common_rust') return r.rust_class;
  const named = namedRust(r.crop);
  return named ? `rust_${named}` : 'common_rust';
}

/**
 * The result's sentences that take no values, which a person may record once for all (the phone's Listen
 * plays the recording): every sure kind's heading and explanation, and the explanation of rust seen on some
 * leaves. "Not sure: possibly {{guess}}" reads a different word each time and is left to the synthetic voice.
 */
export const RECORDABLE_RESULT_KEYS: readonly string[] = (() => {
  const kinds = [...rustClasses, ...namedRusts.map((c) => `rust_${c}`), 'not_leaf'];
  const sentences = (['heading', 'explanation'] as const).flatMap((part) =>
    kinds.map((kind) => `analysis.result.${part}.${kind}`),
  );
  return [...sentences, 'analysis.result.explanation.rust_seen'];
})();

/** One line that says what was found ("Signs of bean rust", "Not sure: possibly …"). */
export function resultHeadingText(r: Said): TextRef {
  const seen = rustSeenText(r, 'heading');
  if (seen) return seen;
  if (r.unsure && sureKind(r) !== 'not_leaf')
    return { key: 'analysis.result.heading.unsure', values: { guess: { key: resultLabelKey(r) } } };
  return { key: `analysis.result.heading.${sureKind(r)}` };
}

/** What the result means and how sure it is. */
export function resultExplanationText(r: Said): TextRef {
  const seen = rustSeenText(r, 'explanation');
  if (seen) return seen;
  if (r.unsure && sureKind(r) !== 'not_leaf')
    return {
      key: 'analysis.result.explanation.unsure',
      values: { guess: { key: resultLabelKey(r) }, percent: confidencePercent(r.confidence) },
    };
  return { key: `analysis.result.explanation.${sureKind(r)}` };
}
