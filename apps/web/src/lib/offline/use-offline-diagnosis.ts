import { useEffect } from 'react';
import { useOfflineModel } from './model.ts';

/**
 * Whether this phone can diagnose offline now. Once a model is stored, the diagnosis and inference
 * code load ahead of need (so they are in memory when the signal drops); the screens import
 * lib/offline/diagnose.ts only when they diagnose, so it stays out of their first download.
 */
export function useOfflineDiagnosis() {
  const model = useOfflineModel();
  useEffect(() => {
    if (!model.stored) return;
    void import('./diagnose.ts');
    void import('./engine.ts');
  }, [model.stored]);
  return { available: model.stored !== null };
}
