import { Alert, Anchor, Button, Center, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * A screen's code (a route chunk) that cannot be fetched: after a redeploy an old tab asks for files
 * the new release removed (404), or the phone is offline and the chunk was never cached. Browsers word
 * it differently; all of them name a dynamically imported module or a module script.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|module script|Unable to preload CSS|ChunkLoadError/i.test(message);
}

/** The router's error element: plain words and a reload button instead of React Router's raw error page. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  console.error(error);
  const chunk = isChunkLoadError(error);
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  const [title, text] =
    chunk && offline
      ? [t('shell.offlineTitle'), t('shell.offlineText')]
      : chunk
        ? [t('shell.updateTitle'), t('shell.updateText')]
        : [t('shell.errorTitle'), t('shell.errorText')];
  return (
    <Center component="main" mih="80vh" p="md">
      <Stack maw={420} w="100%">
        <Alert color="yellow" title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{title}</h1>}>
          {text}
        </Alert>
        <Button onClick={() => window.location.reload()}>{t('shell.reload')}</Button>
        <Anchor href="/" ta="center">
          {t('shell.home')}
        </Anchor>
      </Stack>
    </Center>
  );
}
