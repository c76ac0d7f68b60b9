import { useMemo } from 'react';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { districtGroups } from '../../../lib/district-options.ts';

/**
 * The districts (counties) an extension officer answers for, grouped by country, searchable. Loaded just
 * after the officer's sign-up screen (its dropdown library is ~25 KiB, decision 0077).
 */
export default function DistrictsSelect(props: Omit<MultiSelectProps, 'data'>) {
  const { t } = useTranslation();
  const choices = useMemo(() => districtGroups((c) => t(`auth.officerSignup.country.${c}`)), [t]);
  return <MultiSelect {...props} data={choices} />;
}
