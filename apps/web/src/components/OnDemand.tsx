import { type ReactNode, Suspense, useState } from 'react';
import { Center, Loader } from '@mantine/core';

/**
 * Renders a lazily loaded dialog (`React.lazy`) from the first time `when` is true, and keeps it mounted
 * after so it closes with its transition. A dialog opened on a choice then stays out of the screen's
 * first download (decision 0016; bench/bundle-size.ts counts only the first render's imports).
 */
export function OnDemand({ when, children }: { when: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(when);
  if (when && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}

/**
 * A part of a screen that loads after the screen (`React.lazy`), with a small spinner meanwhile: a form
 * below the fold or for one role only stays out of the screen's first download (decision 0016).
 */
export function Deferred({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center p="md">
          <Loader size="sm" />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}
