import type { ComponentProps } from 'react';
import { optionalLazy } from '../../../components/optional-lazy.ts';
import type ResultFieldType from './ResultField.tsx';

/**
 * The field's name and the ask for a walk, with the fields screens' strings: loaded with a result (the upload
 * screen starts it ahead of need, for an answer made with no signal), and left out if it cannot load. A
 * module of its own, so the upload screen starts it without downloading the result card (decision 0121).
 */
const resultField = optionalLazy<ComponentProps<typeof ResultFieldType>>(() =>
  import('./ResultField.tsx').then(async (m) => {
    await m.screenStringsReady;
    return { default: m.default };
  }),
);
export const ResultField = resultField.Component;
export const preloadResultField = resultField.preload;
