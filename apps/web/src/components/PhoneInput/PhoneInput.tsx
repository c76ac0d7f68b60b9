import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Flex, NativeSelect, TextInput } from '@mantine/core';
import type { CountryCode } from 'libphonenumber-js/core';
import { useTranslation } from 'react-i18next';
import { configuredCountryLookup, type CountryLookup } from './geoip.ts';
import {
  analysePhone,
  availableCountry,
  countryOptions,
  exampleNumber,
  formatInternational,
  fromValue,
  regionCountry,
} from './phone.ts';

export interface PhoneInputProps {
  /** E.164 when the number is valid, otherwise the typed text. */
  value: string;
  onChange: (value: string) => void;
  label?: string;
  /** A message from the form or the server, shown under the number. */
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** The country a number without +CC is read in; by default the account's or the browser's region. */
  defaultCountry?: string | null;
  /** Pre-selects the country from the visitor's IP; defaults to the VITE_GEOIP_URL adapter (off when unset). */
  countryLookup?: CountryLookup | null;
  name?: string;
}

const defaultLookup = configuredCountryLookup();

/** A country selector and a number field that together give an E.164 phone number. */
export function PhoneInput({
  value,
  onChange,
  label,
  error,
  required,
  disabled,
  defaultCountry,
  countryLookup = defaultLookup,
  name,
}: PhoneInputProps) {
  const { t, i18n } = useTranslation();
  // The empty choice shows that no country is selected (after a +CC that no offered country uses).
  const options = useMemo(
    () => [{ value: '', label: '' }, ...countryOptions(i18n.language, (key) => t(key))],
    [i18n.language, t],
  );
  const initial = fromValue(value);
  const [country, setCountryState] = useState<CountryCode | null>(
    () => initial?.country ?? (defaultCountry === undefined ? regionCountry() : availableCountry(defaultCountry)),
  );
  const [text, setText] = useState(() => initial?.display ?? value);
  const emitted = useRef(value);
  const touched = useRef(false);

  const setCountry = (code: string | null) => {
    const ok = availableCountry(code);
    if (code && !ok) console.warn(`Phone country ${code} is not available`);
    setCountryState(ok);
    return ok;
  };

  // A value set from outside (a form reset) replaces what is shown.
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    const parsed = fromValue(value);
    if (parsed) {
      setCountryState(parsed.country);
      setText(parsed.display);
    } else setText(value);
  }, [value]);

  // Optional IP-geolocation pre-select; failures are only logged.
  useEffect(() => {
    if (!countryLookup) return;
    const controller = new AbortController();
    countryLookup(controller.signal)
      .then((code) => {
        if (touched.current || !code) return;
        const ok = availableCountry(code);
        if (ok) setCountryState(ok);
        else console.warn(`Phone country ${code} from the IP lookup is not available`);
      })
      .catch((err: unknown) => {
        if ((err as Error)?.name !== 'AbortError') console.error('Country lookup failed', err);
      });
    return () => controller.abort();
  }, [countryLookup]);

  const emit = (next: string) => {
    emitted.current = next;
    onChange(next);
  };

  const handleText = (typed: string) => {
    touched.current = true;
    const result = analysePhone(typed, country);
    if (result.country !== undefined && result.country !== country) setCountry(result.country);
    setText(result.display);
    emit(result.valid ? result.value : typed);
  };

  const handleCountry = (code: string | null) => {
    touched.current = true;
    const selected = setCountry(code);
    // A national number is read again for the new country; a +CC number keeps its own country.
    if (!text.trim() || text.trim().startsWith('+')) return;
    const result = analysePhone(text, selected);
    setText(result.display);
    emit(result.valid ? result.value : text);
  };

  const trimmed = text.trim();
  const needsCountry = !country && trimmed !== '';
  const read = analysePhone(text, country);
  const invalid = trimmed !== '' && !read.valid;
  const example = exampleNumber(country);
  const numberError: ReactNode = needsCountry ? t('auth.phone.chooseCountry') : error || invalid;
  // Says what was understood, so the farmer sees how the number was read; before that, how a number of
  // the country looks.
  const description = read.valid
    ? t('auth.phone.understood', { number: formatInternational(read.value) })
    : example
      ? `${t('auth.phone.example')} ${example}`
      : undefined;

  return (
    // The country above the number on a phone, so the number has the whole width at 390 px.
    <Flex gap="xs" align={{ base: 'stretch', xs: 'flex-start' }} direction={{ base: 'column', xs: 'row' }}>
      {/* The phone's own picker: a short list, and no dropdown code to download. */}
      <NativeSelect
        label={t('auth.phone.countryCode')}
        data={options}
        value={country ?? ''}
        onChange={(e) => handleCountry(e.currentTarget.value || null)}
        disabled={disabled}
        error={needsCountry}
        w={{ base: '100%', xs: '10rem' }}
        style={{ flexShrink: 0 }}
        size="sm"
      />
      <TextInput
        label={label ?? t('auth.phone.number')}
        name={name}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={text}
        onChange={(e) => handleText(e.currentTarget.value)}
        error={numberError}
        description={description}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        disabled={disabled}
        required={required}
        style={{ flex: 1, minWidth: 0 }}
      />
    </Flex>
  );
}
