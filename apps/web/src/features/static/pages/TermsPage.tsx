import { type ComponentType, lazy, type LazyExoticComponent, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLanguage, type Language } from '../../../lib/language.ts';

/**
 * Terms of use and privacy notice. A legal text is translated as a whole document, not string by
 * string, so each language has its own (features/static/terms/); only the reader's is downloaded.
 */
const documents: Record<Language, LazyExoticComponent<ComponentType>> = {
  en: lazy(() => import('../terms/TermsEn.tsx')),
  sw: lazy(() => import('../terms/TermsSw.tsx')),
  lg: lazy(() => import('../terms/TermsLg.tsx')),
};

export default function TermsPage() {
  useTranslation(); // renders again when the reader switches language
  const Document = documents[currentLanguage()];
  return (
    <Suspense
      fallback={
        <Center p="xl">
          <Loader />
        </Center>
      }
    >
      <Document />
    </Suspense>
  );
}
