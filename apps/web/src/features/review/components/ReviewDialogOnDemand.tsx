import { lazy, Suspense } from 'react';
import { Loading } from '../../../components/ListState.tsx';
import type { ReviewTarget } from './ReviewDialog.tsx';

const ReviewDialog = lazy(() => import('./ReviewDialog.tsx').then((m) => ({ default: m.ReviewDialog })));

/**
 * The review dialog, downloaded when an expert first opens one: the queue's route stays within its
 * 250 KiB byte budget (bench/bundle-size.ts), and a decision needs the network anyway.
 */
export function ReviewDialogOnDemand(props: { item: ReviewTarget; onClose: () => void }) {
  return (
    <Suspense fallback={<Loading />}>
      <ReviewDialog {...props} />
    </Suspense>
  );
}
