import { Center } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Shown while a screen's code loads: the boot screen's bar (index.html, `.loading-bar`), which moves in
 * steps. Mantine's Loader spun smoothly for the second or so the account screens' code takes on a first
 * visit, and a smooth animation makes a phone with no free GPU core (and Lighthouse's 2-core run) draw 60
 * frames a second while the screen starts (decision 0016).
 */
export function ScreenLoading() {
  const { t } = useTranslation();
  return (
    <Center p="xl">
      <span className="loading-bar" role="status" aria-label={t('app.loading')} />
    </Center>
  );
}
