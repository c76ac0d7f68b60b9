import { useEffect, useRef, useState } from 'react';
import type { ResultWithReview } from '../components/ResultWithReview.tsx';

const loadView = () => import('../components/ResultWithReview.tsx').then((m) => m.ResultWithReview);
const noView = () => undefined;

/**
 * The upload screen's view of the server's answer (`ResultWithReview`), loaded just after the screen rather
 * than with it; again once there is an answer (`answered`) if it could not load before (no signal then).
 * Null until it is in.
 */
export function useResultView(answered: boolean): typeof ResultWithReview | null {
  const [view, setView] = useState<typeof ResultWithReview | null>(null);
  const tried = useRef(false);
  useEffect(() => {
    if (view || (!answered && tried.current)) return;
    tried.current = true;
    loadView().then((loaded) => setView(() => loaded), noView);
  }, [view, answered]);
  return view;
}
