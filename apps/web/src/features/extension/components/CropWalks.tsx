import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OfficerWeek } from '@kutu/contract';
import { SMALL_COUNT_WORDS } from '@kutu/contract/outbreak-paths';

/**
 * The district's fields of a crop walked this week: how many, the median share of plants with rust and those
 * whose latest walk's advice is to spray now; fields of fewer than SMALL_COUNT_MIN farmers, none of it (decision 0105) (the server sends no median).
 */
export function CropWalks({ walks }: { walks: OfficerWeek['crops'][number]['walks'] }) {
  const { t } = useTranslation();
  const few = t('extension.week.hiddenCount', SMALL_COUNT_WORDS);
  if (walks.median_incidence === null) return <Text size="sm">{t('extension.week.walksFew', SMALL_COUNT_WORDS)}</Text>;
  return (
    <Text size="sm">
      {t('extension.week.walks', {
        fields: walks.fields.count ?? few,
        median: `${Math.round(walks.median_incidence * 100)} %`,
        spray: walks.at_spray_share.count ?? few,
      })}
    </Text>
  );
}
