import { memo, type ReactNode, useEffect, useMemo, useState } from 'react';
import { Button, Group, Input, NativeSelect, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconCurrentLocation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type DistrictCountry, districtByCode, districts } from '@kutu/contract/districts';

interface DistrictPickerProps {
  /** The chosen code, or '' for none. */
  value: string;
  onChange: (code: string) => void;
  error?: ReactNode;
  required?: boolean;
  /**
   * Whose district it is, for the label: the reader's farm (a farmer's sign-up or settings), the reader's
   * own area (an expert's sign-up), the farmer's farm as staff fill it in (a plant clinic visit), or one
   * of the reader's fields.
   */
  whose?: 'myFarm' | 'mine' | 'farmer' | 'field';
  /** A place the person typed before (the farm location of their sign-up): the search starts on it. */
  suggested?: string;
}

type Status = 'idle' | 'locating' | 'found' | 'outside' | 'denied';

/** Case and accent blind, so "LUWERO" finds "Luwero" and "muranga" finds "Murang'a". */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f'’`-]/g, '')
    .toLowerCase();

/**
 * The district or county a text names exactly (the whole text, or one of its comma-separated parts): in
 * `country` first ("Busia" is in both), else in the other.
 */
function namedDistrict(text: string, country: DistrictCountry) {
  const parts = [text, ...text.split(/[,;]/)].map((p) => fold(p.trim())).filter(Boolean);
  const named = districts.filter((d) => parts.includes(fold(d.name)));
  return named.find((d) => d.country === country) ?? named[0];
}

/**
 * The farmer's district (Uganda) or county (Kenya) from the list the app ships (@kutu/contract/districts):
 * a country, a search box and the matching names. "Use my location" asks the phone for its position and
 * finds the district on the phone (lib/locate.ts, loaded on that tap): the position is never sent, only
 * the chosen code is, with the form.
 */
export const DistrictPicker = memo(function DistrictPicker({
  value,
  onChange,
  error,
  required,
  whose = 'myFarm',
  suggested,
}: DistrictPickerProps) {
  const { t } = useTranslation();
  const label = t(`auth.district.label.${whose}`);
  const chosen = value ? districtByCode(value) : undefined;
  const offered = !value && suggested ? namedDistrict(suggested, 'UG') : undefined;
  const [country, setCountry] = useState<DistrictCountry>(chosen?.country ?? offered?.country ?? 'UG');
  const [query, setQuery] = useState(offered?.name ?? '');
  // The place typed before names a district: it is chosen on opening, for the person to confirm with the form.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the first render's suggestion counts
  useEffect(() => {
    if (offered) onChange(offered.code);
  }, []);
  /** A name typed whole ("mbale", "Nairobi") is chosen at once, in its country; a part of one filters the list. */
  const search = (text: string) => {
    setQuery(text);
    const named = namedDistrict(text, country);
    if (!named || named.code === value) return;
    setCountry(named.country);
    onChange(named.code);
  };
  const [status, setStatus] = useState<Status>('idle');
  const [found, setFound] = useState('');
  const options = useMemo(() => {
    const q = fold(query.trim());
    return districts
      .filter((d) => d.country === country && (d.code === value || !q || fold(d.name).includes(q)))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [country, query, value]);

  const locate = () => {
    if (!('geolocation' in navigator)) {
      setStatus('denied');
      return;
    }
    setStatus('locating');
    navigator.geolocation.getCurrentPosition(
      (position) => {
        void import('../../lib/geo/locate.ts')
          .then((m) => m.districtOfPosition(position.coords.longitude, position.coords.latitude))
          .then((hit) => {
            if (!hit) {
              setStatus('outside');
              return;
            }
            setCountry(hit.properties.country);
            setQuery('');
            setFound(hit.properties.name);
            setStatus('found');
            onChange(hit.properties.code);
          })
          .catch(() => setStatus('denied'));
      },
      () => setStatus('denied'),
      { enableHighAccuracy: false, timeout: 20_000, maximumAge: 10 * 60_000 },
    );
  };

  return (
    <Input.Wrapper
      label={label}
      // A field's district needs no word on what it is for: the field's form says it.
      description={whose === 'field' ? undefined : t(`auth.district.hint.${whose}`)}
      required={required}
      error={error}
      data-testid="district-picker"
    >
      <Stack gap="xs" mt={6}>
        <SegmentedControl
          fullWidth
          aria-label={t('auth.district.country')}
          value={country}
          onChange={(next) => {
            setCountry(next as DistrictCountry);
            setQuery('');
          }}
          data={(['UG', 'KE'] as const).map((c) => ({ value: c, label: t(`auth.district.countries.${c}`) }))}
        />
        <TextInput
          label={t('auth.district.search')}
          placeholder={t('auth.district.searchPlaceholder')}
          value={query}
          onChange={(e) => search(e.currentTarget.value)}
          size="sm"
        />
        <NativeSelect
          aria-label={label}
          value={value && options.some((d) => d.code === value) ? value : ''}
          onChange={(e) => onChange(e.currentTarget.value)}
          data={[
            { value: '', label: options.length ? t('auth.district.choose') : t('auth.district.noMatch') },
            ...options.map((d) => ({ value: d.code, label: d.name })),
          ]}
          error={Boolean(error)}
          data-testid="district-select"
        />
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconCurrentLocation size={16} />}
            onClick={locate}
            loading={status === 'locating'}
          >
            {t('auth.district.useLocation')}
          </Button>
        </Group>
        <Text size="xs" c={status === 'outside' || status === 'denied' ? 'orange' : 'dimmed'} role="status">
          {status === 'found'
            ? t('auth.district.found', { name: found })
            : status === 'outside'
              ? t('auth.district.outside')
              : status === 'denied'
                ? t('auth.district.denied')
                : status === 'locating'
                  ? t('auth.district.locating')
                  : t('auth.district.privacy')}
        </Text>
      </Stack>
    </Input.Wrapper>
  );
});
