import '../../styles/app-screens.ts';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Group, NativeSelect, TextInput } from '@mantine/core';
import type { CountryCode } from 'libphonenumber-js/core';
import { useTranslation } from 'react-i18next';
import { configuredCountryLookup, type CountryLookup } from './geoip.ts';
import { analysePhone, availableCountry, countryOptions, DEFAULT_COUNTRY, exampleNumber, fromValue } from './phone.ts';

export interface PhoneInputProps {
  /** E.164 when the number is valid, otherwise the typed text. */
  value: string;
  onChange: (value: string) => void;
  label?: string;
  /** A message from the form or the server, shown under the number. */
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
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
  defaultCountry = DEFAULT_COUNTRY,
  countryLookup = defaultLookup,
  name,
}: PhoneInputProps) {
  const { t, i18n } = useTranslation();
  // The empty choice shows that no country is selected (after a +CC that no offered country uses).
  const options = useMemo(() => [{ value: '', label: '' }, ...countryOptions(i18n.language)], [i18n.language]);
  const initial = fromValue(value);
  const [country, setCountryState] = useState<CountryCode | null>(
    () => initial?.country ?? availableCountry(defaultCountry),
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
  const invalid = trimmed !== '' && !analysePhone(text, country).valid;
  const example = exampleNumber(country);
  const numberError: ReactNode = needsCountry ? t('auth.phone.chooseCountry') : error || invalid;

  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      {/* The phone's own picker: a short list, and no dropdown code to download. */}
      <NativeSelect
        label={t('auth.phone.countryCode')}
        data={options}
        value={country ?? ''}
        onChange={(e) => handleCountry(e.currentTarget.value || null)}
        disabled={disabled}
        error={needsCountry}
        w="10rem"
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
        description={example ? `${t('auth.phone.example')} ${example}` : undefined}
        disabled={disabled}
        required={required}
        style={{ flex: 1 }}
      />
    </Group>
  );
}
