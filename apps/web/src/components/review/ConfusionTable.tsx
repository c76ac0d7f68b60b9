import { ScrollArea, Table } from '@mantine/core';
import type { FieldAccuracyFigures } from '@kutu/contract';
import { useTranslation } from 'react-i18next';

/**
 * A confusion matrix as a small bordered table: the model's answers down the side, the expert's across
 * the top, `counts[row][column]` in the cells (0 where absent). Scrolls sideways on a phone.
 */
export function ConfusionTable({
  label,
  rows,
  columns,
  name,
  counts,
}: {
  /** The table's accessible name. */
  label: string;
  rows: readonly string[];
  columns: readonly string[];
  /** The words for a row's or a column's key. */
  name: (key: string) => string;
  counts: FieldAccuracyFigures['confusion'];
}) {
  const { t } = useTranslation();
  return (
    <ScrollArea type="auto">
      <Table fz="xs" withTableBorder withColumnBorders horizontalSpacing={4} verticalSpacing={4} aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('review.field.modelVsExpert')}</Table.Th>
            {columns.map((c) => (
              <Table.Th key={c}>{name(c)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r}>
              <Table.Th>{name(r)}</Table.Th>
              {columns.map((c) => (
                <Table.Td key={c}>{counts[r]?.[c] ?? 0}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}
