import { describe, expect, it } from 'vitest';
import { textState } from './text-state.ts';

const advice = { key: 'advice:common_rust:maize', kind: 'advice' as const, text: 'Treat the rust\nSpray early.' };

describe('where a text to record stands', () => {
  it('is not recorded until a recording of its key exists', () => {
    expect(textState(advice, [], [{ key: 'advice:bean_rust:beans', text: 'Pick off leaves' }])).toBe('none');
  });

  it('is recorded while the recording in use reads its very words, and out of date once the text changed', () => {
    expect(textState(advice, [], [{ key: advice.key, text: advice.text }])).toBe('current');
    expect(textState({ ...advice, text: 'Treat the rust now\nSpray early.' }, [], [advice])).toBe('outdated');
  });

  it('waits for approval when a recording of these words was sent, even beside an older one in use', () => {
    const edited = { ...advice, text: 'Treat the rust now\nSpray early.' };
    expect(textState(edited, [{ key: advice.key, text: edited.text }], [advice])).toBe('pending');
    // A pending recording of the earlier words does not count for the edited text.
    expect(textState(edited, [{ key: advice.key, text: advice.text }], [advice])).toBe('outdated');
  });
});
