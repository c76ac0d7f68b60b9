import { Text } from '@mantine/core';
import { formatPercent } from '../../lib/format.ts';

/** A share as "75.0 %", or a dash when there is none. */
export const pct = (v: number | null) => (v === null ? '–' : formatPercent(v, 1));

export function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
