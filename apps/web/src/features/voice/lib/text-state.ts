/** A text Kutu speaks, as the recording screen lists it. */
export interface RecordableText {
  key: string;
  kind: 'result' | 'advice' | 'call';
  text: string;
}

/** Waiting for approval, not recorded, recorded (the recording reads these words), or out of date. */
export type TextState = 'pending' | 'none' | 'current' | 'outdated';

/**
 * Where a text stands: a recording of these very words waits for approval; else the recording in use for
 * its key reads them (current) or read earlier words (out of date: the text was edited since); else none.
 */
export function textState(
  item: RecordableText,
  pending: readonly { key: string; text: string }[],
  inUse: readonly { key: string; text: string }[],
): TextState {
  if (pending.some((c) => c.key === item.key && c.text === item.text)) return 'pending';
  const clip = inUse.find((c) => c.key === item.key);
  if (!clip) return 'none';
  return clip.text === item.text ? 'current' : 'outdated';
}
