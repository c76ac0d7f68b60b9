import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage, isLanguage, languages, nativeNames } from '../../lib/language.ts';
import { chooseLanguage } from '../../lib/language-sync.ts';

const options = languages.map((language) => ({ value: language, label: nativeNames[language] }));

/**
 * The language switch of the auth screens and the top bar: each language in its own name. A native
 * select (no dropdown library on the sign-in page's bytes), small enough for a 390 px top bar.
 */
export function LanguageSwitch({ label, description }: { label?: string; description?: string }) {
  const { t, i18n } = useTranslation();
  // Re-read on every language change (useTranslation re-renders on it); pseudo shows as English.
  const value = i18n.language && currentLanguage();
  return (
    <NativeSelect
      size="xs"
      w={label ? 160 : 96}
      label={label}
      description={description}
      // Labelled (Profile), the visible label is its only name; unlabelled (top bar), the name is also its tooltip.
      aria-label={label ? undefined : t('language.label')}
      title={label ? undefined : t('language.label')}
      data={options}
      value={value}
      onChange={(event) => {
        const chosen = event.currentTarget.value;
        if (isLanguage(chosen)) void chooseLanguage(chosen);
      }}
      data-testid="language-switch"
    />
  );
}
