import { useMemo } from 'react';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { districts } from '@kutu/contract/districts';

/**
 * The districts (counties) an extension officer answers for, grouped by country, searchable. Loaded just
 * after the officer's sign-up screen (its dropdown library is ~25 KiB, decision 0077).
 */
export default function DistrictsSelect(props: Omit<MultiSelectProps, 'data'>) {
  const { t } = useTranslation();
  const choices = useMemo(
    () =>
      (['UG', 'KE'] as const).map((country) => ({
        group: t(`auth.officerSignup.country.${country}`),
        items: districts
          .filter((d) => d.country === country)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((d) => ({ value: d.code, label: d.name })),
      })),
    [t],
  );
  return <MultiSelect {...props} data={choices} />;
}
