import { type ReactNode, Suspense } from 'react';
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { optionalLazy } from './optional-lazy.ts';

/**
 * The page buttons (Mantine's Pagination, 3.4 KiB) are not in the first download of the screens with a
 * list: started with this module, they are in by the time a list's rows are, and until then a box of
 * their height holds their place (decision 0121).
 */
const pager = optionalLazy(() => import('./Pager.tsx'));
pager.preload();
const PAGER_HEIGHT = 'calc(1.625rem * var(--mantine-scale))';

// A type, not an interface: i18next takes it as the words' values.
type PageRange = { from: number; to: number; total: number };

/**
 * The one pager under every list and table: "1–20 of 42" and the page buttons (first, previous, the
 * numbers, next, last). `count` is the number of rows of the whole list.
 */
export function ListPagination({
  page,
  pageSize,
  count,
  onChange,
  disabled = false,
  label,
  onOnePage = 'hide',
  children,
}: {
  page: number;
  pageSize: number;
  count: number;
  onChange: (page: number) => void;
  /** While the next page loads. */
  disabled?: boolean;
  /** The words of "1–20 of 42": rows by default. */
  label?: (range: PageRange) => string;
  /**
   * When everything fits on one page: hide the pager (lists), keep the range alone (card lists), or
   * keep it all (a table, whose rows-per-page select sits in it).
   */
  onOnePage?: 'hide' | 'range' | 'all';
  /** Controls before the range, such as a table's rows per page. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(count / pageSize));
  if (pages === 1 && (onOnePage === 'hide' || (onOnePage === 'range' && count === 0))) return null;
  const range: PageRange = {
    from: count === 0 ? 0 : Math.min((page - 1) * pageSize + 1, count),
    to: Math.min(count, page * pageSize),
    total: count,
  };
  return (
    <Group justify="space-between" mt="md" gap="sm" wrap="wrap">
      <Group gap="sm" wrap="wrap">
        {children}
        <Text size="sm" c="dimmed" aria-live="polite">
          {label ? label(range) : t('list.range', range)}
        </Text>
      </Group>
      {(pages > 1 || onOnePage === 'all') && (
        <Suspense fallback={<div style={{ height: PAGER_HEIGHT }} />}>
          <pager.Component
            size="sm"
            value={page}
            total={pages}
            onChange={onChange}
            disabled={disabled}
            withEdges
            getControlProps={(control) => ({ 'aria-label': t(`list.${control}Page`) })}
          />
        </Suspense>
      )}
    </Group>
  );
}
