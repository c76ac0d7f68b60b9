import { Skeleton, type SkeletonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A placeholder for a figure still loading, named "Loading" for screen readers. A Mantine Skeleton is a
 * plain div, on which ARIA forbids a name (axe: aria-prohibited-attr, serious); a status region may have one.
 */
export function LoadingSkeleton(props: SkeletonProps) {
  const { t } = useTranslation();
  return <Skeleton role="status" aria-label={t('app.loading')} {...props} />;
}
